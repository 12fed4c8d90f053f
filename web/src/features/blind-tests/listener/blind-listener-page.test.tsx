import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { abxVerdict, type BlindListenerPage, type BlindOption } from '@takes/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../../ui/axe-test-support';
import { AuthContext, type AuthContextValue } from '../../auth/auth-context';
import { fakePlayer } from '../../player/test-support';
import { AudioPlayerContext } from '../../player/use-audio-player';
import { SharePage } from '../../share/share-page';

const HASH = 'BlInDkEy0123456789';
const base = `/api/blind/${HASH}`;

function option(id: string, letter: string): BlindOption {
  return { id, letter, audio_url: `${base}/audio/${id}` };
}

const X = option('optX', 'X');
const Y = option('optY', 'Y');
const Z = option('optZ', 'Z');
const A = option('optA', 'A');
const B = option('optB', 'B');

function listenerPage(overrides: Partial<BlindListenerPage> = {}): BlindListenerPage {
  return {
    name: 'Mix shoot-out',
    mode: 'preference',
    recipient_name: null,
    status: 'ready',
    levels_matched: true,
    duration: 100,
    listener_name: null,
    options: [X, Y, Z],
    vote: null,
    abx: null,
    reveal: null,
    ...overrides,
  };
}

function abxPage(answered = 0, trials = 3): BlindListenerPage {
  return listenerPage({
    mode: 'abx',
    options: [],
    abx: { a: A, b: B, trials, answered, trial: null, result: null },
  });
}

// ---- A stand-in for Web Audio (jsdom has none): it records the sources and gains made ----

class FakeParam {
  value = 0;
  target = 0;
  cancelScheduledValues() {}
  setValueAtTime(value: number) {
    this.value = value;
    this.target = value;
  }
  linearRampToValueAtTime(value: number) {
    this.target = value;
  }
}

class FakeGain {
  gain = new FakeParam();
  connect = vi.fn();
  disconnect = vi.fn();
}

class FakeSource {
  buffer: { duration: number } | null = null;
  onended: (() => void) | null = null;
  started: { when: number; offset: number } | null = null;
  killed = false;
  gain: FakeGain | null = null;
  connect(gain: FakeGain) {
    this.gain = gain;
  }
  disconnect = vi.fn();
  start(when: number, offset: number) {
    this.started = { when, offset };
  }
  stop(when?: number) {
    if (when === undefined) this.killed = true;
  }
}

class FakeContext {
  static made: FakeContext[] = [];
  currentTime = 0;
  state = 'running';
  destination = {};
  sources: FakeSource[] = [];
  constructor() {
    FakeContext.made.push(this);
  }
  createGain() {
    return new FakeGain();
  }
  createBufferSource() {
    const source = new FakeSource();
    this.sources.push(source);
    return source;
  }
  decodeAudioData() {
    return Promise.resolve({ duration: 100, length: 100_000, sampleRate: 1000 });
  }
  resume = vi.fn(() => Promise.resolve());
  close = vi.fn(() => {
    this.state = 'closed';
    return Promise.resolve();
  });
  /** The sources playing now, by the option id whose audio they play. */
  live(): FakeSource[] {
    return this.sources.filter((source) => source.started && !source.killed);
  }
}

const signedOut: AuthContextValue = {
  status: 'signed-out',
  user: null,
  refresh: () => Promise.resolve(),
  signOut: () => Promise.resolve(),
  acceptSession: () => undefined,
};

function renderSharePage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/share/:hash', element: <SharePage /> }], {
    initialEntries: [`/share/${HASH}`],
  });
  return render(
    <QueryClientProvider client={client}>
      <AuthContext value={signedOut}>
        <AudioPlayerContext value={fakePlayer()}>
          <RouterProvider router={router} />
        </AudioPlayerContext>
      </AuthContext>
    </QueryClientProvider>,
  );
}

interface Sent {
  url: string;
  method: string;
  body: unknown;
}

let locked: boolean;
let current: BlindListenerPage;
let voteAnswer: (() => Response) | null;
let sent: Sent[];

beforeEach(() => {
  locked = false;
  current = listenerPage();
  voteAnswer = null;
  sent = [];
  FakeContext.made = [];
  vi.stubGlobal('AudioContext', FakeContext);
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      sent.push({ url, method, body });
      if (url === `/api/links/hash/${HASH}`)
        return Promise.resolve(
          Response.json(
            {
              error: 'Link not found',
              code: 'link_is_blind_test',
              details: { kind: 'blind_test' },
            },
            { status: 404 },
          ),
        );
      if (url === base && method === 'GET')
        return Promise.resolve(
          locked
            ? Response.json(
                { error: 'This link needs a password', code: 'link_password_required' },
                { status: 401 },
              )
            : Response.json(current),
        );
      if (url === `${base}/unlock` && method === 'POST') {
        if ((body as { password: string }).password === 'open sesame') {
          locked = false;
          return Promise.resolve(new Response(null, { status: 204 }));
        }
        return Promise.resolve(
          Response.json({ error: 'Wrong password', code: 'link_password_wrong' }, { status: 401 }),
        );
      }
      if (url === `${base}/vote` && method === 'POST') {
        if (voteAnswer) return Promise.resolve(voteAnswer());
        const vote = body as { name: string; option_id: string; note: string | null };
        current = {
          ...current,
          listener_name: vote.name,
          vote: { option_id: vote.option_id, note: vote.note },
        };
        return Promise.resolve(Response.json(current));
      }
      if (url === `${base}/trials` && method === 'POST' && current.abx) {
        const number = current.abx.answered + 1;
        const x = option(`x${number}`, 'X');
        current = {
          ...current,
          listener_name: (body as { name: string }).name,
          abx: { ...current.abx, trial: { number, x } },
        };
        return Promise.resolve(Response.json(current));
      }
      if (url === `${base}/trials/answer` && method === 'POST' && current.abx) {
        const answered = current.abx.answered + 1;
        const finished = answered >= current.abx.trials;
        current = {
          ...current,
          abx: {
            ...current.abx,
            answered,
            trial: null,
            result: finished ? abxVerdict(answered, answered) : null,
          },
          reveal: finished
            ? [
                { letter: 'A', label: 'Version 3 · main' },
                { letter: 'B', label: 'Version 4 · main' },
              ]
            : null,
        };
        return Promise.resolve(Response.json(current));
      }
      if (url.startsWith(`${base}/audio/`))
        return Promise.resolve(new Response(new ArrayBuffer(8)));
      return Promise.resolve(
        Response.json({ error: 'Not found', code: 'not_found' }, { status: 404 }),
      );
    }),
  );
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

function audioAsked(): string[] {
  return sent.filter((request) => request.url.startsWith(`${base}/audio/`)).map((r) => r.url);
}

function posted(path: string): unknown[] {
  return sent
    .filter((request) => request.method === 'POST' && request.url === `${base}${path}`)
    .map((request) => request.body);
}

describe('the blind test listener page', () => {
  it('opens from the version lookup and shows letters only, levels matched', async () => {
    renderSharePage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Mix shoot-out' })).toBeTruthy();
    expect(screen.getByText('Levels matched')).toBeTruthy();
    const transport = screen.getByRole('group', { name: 'Options' });
    for (const letter of ['X', 'Y', 'Z'])
      expect(within(transport).getByRole('button', { name: `Play ${letter}` })).toBeTruthy();
    const choices = screen.getByRole('radiogroup', { name: 'Which do you prefer?' });
    expect(
      within(choices)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['optX', 'optY', 'optZ']);
    expect(within(choices).getByRole('radio', { name: 'Y' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/version/i);
    await waitFor(() => expect(document.title).toBe('Mix shoot-out'));
    // Every option's audio is fetched, on this site.
    await waitFor(() => expect(audioAsked()).toHaveLength(3));
    expect(sent.every((request) => request.url.startsWith('/api/'))).toBe(true);
    expect(await axeViolations()).toEqual([]);
  });

  it('switches letters on one transport without moving the position', async () => {
    renderSharePage();
    await waitFor(() => expect(audioAsked()).toHaveLength(3));
    const transport = await screen.findByRole('group', { name: 'Options' });
    fireEvent.click(within(transport).getByRole('button', { name: 'Play Y' }));
    // Playing once every option is decoded.
    expect(await within(transport).findByText('Hearing Y')).toBeTruthy();
    expect(within(transport).getByRole('button', { name: 'Pause' })).toBeTruthy();
    const context = FakeContext.made.at(-1);
    if (!context) throw new Error('an audio context expected');
    // All three start together, at the same time and offset; Y alone is heard.
    const started = context.live();
    expect(started).toHaveLength(3);
    expect(new Set(started.map((source) => JSON.stringify(source.started))).size).toBe(1);
    const heard = () => context.live().filter((source) => source.gain?.gain.target === 1);
    expect(heard()).toHaveLength(1);
    const heardY = heard()[0];

    act(() => {
      context.currentTime = 12.5;
    });
    fireEvent.click(within(transport).getByRole('button', { name: 'Play Z' }));
    expect(
      within(transport).getByRole('button', { name: 'Play Z' }).getAttribute('aria-pressed'),
    ).toBe('true');
    // No source was restarted: only the gains moved.
    expect(context.live()).toEqual(started);
    expect(heard()).toHaveLength(1);
    expect(heard()[0]).not.toBe(heardY);

    fireEvent.click(within(transport).getByRole('button', { name: 'Pause' }));
    expect(within(transport).getByRole('button', { name: 'Play' })).toBeTruthy();
    await waitFor(() =>
      expect(
        within(transport).getByRole('slider', { name: 'Position' }).getAttribute('aria-valuetext'),
      ).toBe('0:12 of 1:40'),
    );
  });

  it('sends the vote with the name, option and note, thanks, and votes again', async () => {
    localStorage.setItem('takes.visitorName', 'Vera');
    renderSharePage();
    const nameField = await screen.findByLabelText<HTMLInputElement>('Your name');
    expect(nameField.value).toBe('Vera');
    fireEvent.click(screen.getByRole('radio', { name: 'Y' }));
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'Warmer low end' } });
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    expect(await screen.findByText('Thanks, Vera: your vote for Y is in.')).toBeTruthy();
    expect(posted('/vote')).toEqual([{ name: 'Vera', option_id: 'optY', note: 'Warmer low end' }]);

    fireEvent.click(screen.getByRole('button', { name: 'Change vote' }));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Y' }).checked).toBe(true);
    fireEvent.change(nameField, { target: { value: 'Vera V' } });
    fireEvent.click(screen.getByRole('radio', { name: 'X' }));
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    expect(await screen.findByText('Thanks, Vera V: your vote for X is in.')).toBeTruthy();
    expect(posted('/vote')[1]).toEqual({ name: 'Vera V', option_id: 'optX', note: null });
    expect(localStorage.getItem('takes.visitorName')).toBe('Vera V');
    expect(await axeViolations()).toEqual([]);
  });

  it('asks for a name before voting, and shows a refused vote with its message', async () => {
    current = listenerPage({ recipient_name: 'Rita Recipient' });
    renderSharePage();
    const nameField = await screen.findByLabelText<HTMLInputElement>('Your name');
    expect(nameField.value).toBe('Rita Recipient');
    fireEvent.change(nameField, { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('radio', { name: 'X' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    expect(await screen.findByText('Tell us your name first.')).toBeTruthy();
    expect(document.activeElement).toBe(nameField);
    expect(posted('/vote')).toEqual([]);

    voteAnswer = () =>
      Response.json(
        { error: 'Too many attempts. Please wait a moment and try again.' },
        { status: 429 },
      );
    fireEvent.change(nameField, { target: { value: 'Rita' } });
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please wait a moment and try again.',
    );
  });

  it('lists which version each letter was once revealed', async () => {
    current = listenerPage({
      listener_name: 'Vera',
      vote: { option_id: 'optZ', note: null },
      reveal: [
        { letter: 'X', label: 'Version 3 · main' },
        { letter: 'Y', label: 'Version 5 · mix-b' },
        { letter: 'Z', label: 'Version 4 · main' },
      ],
    });
    renderSharePage();
    expect(await screen.findByText('Thanks, Vera: your vote for Z is in.')).toBeTruthy();
    const list = within(screen.getByRole('region', { name: 'Which was which' })).getByRole('list');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['X was Version 3 · main', 'Y was Version 5 · mix-b', 'Z was Version 4 · main']);
  });

  it("runs the ABX trials, answering with A's or B's id, and shows the verdict at the end", async () => {
    current = abxPage(0, 2);
    renderSharePage();
    const nameField = await screen.findByLabelText<HTMLInputElement>('Your name');
    const transport = screen.getByRole('group', { name: 'A, B and X' });
    expect(
      within(transport)
        .getAllByRole('button', { name: /^Play / })
        .map((b) => b.textContent),
    ).toEqual(['Play A', 'Play B']);
    // The name comes first.
    fireEvent.click(screen.getByRole('button', { name: 'Start trial 1 of 2' }));
    expect(await screen.findByText('Tell us your name first.')).toBeTruthy();
    expect(posted('/trials')).toEqual([]);

    fireEvent.change(nameField, { target: { value: 'Abe' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start trial 1 of 2' }));
    expect(await screen.findByText('Is X A or B?')).toBeTruthy();
    expect(posted('/trials')).toEqual([{ name: 'Abe' }]);
    expect(screen.getByText('Trial 1 of 2')).toBeTruthy();
    // X joins A and B on the transport; its audio is asked for by its own opaque id.
    expect(within(transport).getByRole('button', { name: 'Play X' })).toBeTruthy();
    await waitFor(() => expect(audioAsked()).toContain(`${base}/audio/x1`));
    expect(await axeViolations()).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'X is B' }));
    expect(await screen.findByText('Trial 1 of 2 answered')).toBeTruthy();
    expect(posted('/trials/answer')).toEqual([{ trial: 1, answer: 'optB' }]);
    // Nothing says whether it was right.
    expect(document.body.textContent).not.toMatch(/correct|wrong|right/i);
    expect(within(transport).queryByRole('button', { name: 'Play X' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Next trial' }));
    fireEvent.click(await screen.findByRole('button', { name: 'X is A' }));
    expect(
      await screen.findByText(
        '2 of 2 correct, p = 0.250: no sign they can hear the difference (guessing does as well)',
      ),
    ).toBeTruthy();
    expect(posted('/trials')).toEqual([{ name: 'Abe' }, { name: 'Abe' }]);
    expect(posted('/trials/answer')).toEqual([
      { trial: 1, answer: 'optB' },
      { trial: 2, answer: 'optA' },
    ]);
    expect(screen.queryByRole('button', { name: 'Next trial' })).toBeNull();
    expect(screen.getByText('A was Version 3 · main')).toBeTruthy();
  });

  it('keeps one part’s audio at a time when a test has both', async () => {
    current = { ...abxPage(), mode: 'both', options: [X, Y] };
    renderSharePage();
    expect(await screen.findByRole('radiogroup', { name: 'Which do you prefer?' })).toBeTruthy();
    await waitFor(() => expect(audioAsked()).toEqual([`${base}/audio/optX`, `${base}/audio/optY`]));
    const abx = screen.getByRole('group', { name: 'A, B and X' });
    fireEvent.click(within(abx).getByRole('button', { name: 'Play B' }));
    await waitFor(() => expect(audioAsked()).toHaveLength(4));
    expect(audioAsked().slice(2)).toEqual([`${base}/audio/optA`, `${base}/audio/optB`]);
    // The preference part's context was closed, its buffers freed.
    expect(FakeContext.made[0]?.state).toBe('closed');
    await waitFor(() => expect(within(abx).getByRole('button', { name: 'Pause' })).toBeTruthy());
  });

  it('asks for the password of a locked test, then opens it', async () => {
    locked = true;
    renderSharePage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link needs a password' }),
    ).toBeTruthy();
    expect(screen.getByText(/to open the blind test/)).toBeTruthy();
    expect(audioAsked()).toEqual([]);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'guess' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong password');
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'open sesame' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Mix shoot-out' })).toBeTruthy();
    expect(posted('/unlock')).toEqual([{ password: 'guess' }, { password: 'open sesame' }]);
  });

  it('says the test is being prepared, and opens it once it is ready', async () => {
    current = listenerPage({ status: 'preparing', levels_matched: false, duration: null });
    renderSharePage();
    expect(
      await screen.findByText(
        'The blind test is being prepared. This page opens it as soon as it is ready.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Levels matched')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Play X' })).toBeNull();
    expect(audioAsked()).toEqual([]);
    current = listenerPage();
    expect(await screen.findByRole('button', { name: 'Play X' }, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByText('Levels matched')).toBeTruthy();
  });

  it('shows a test that could not be prepared, and an unknown link', async () => {
    current = listenerPage({ status: 'failed', levels_matched: false });
    renderSharePage();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The blind test could not be prepared.',
    );
    expect(screen.queryByRole('button', { name: 'Vote' })).toBeNull();
    cleanup();

    locked = false;
    vi.mocked(fetch).mockImplementation((url) =>
      Promise.resolve(
        url === base
          ? Response.json({ error: 'Link not found', code: 'link_not_found' }, { status: 404 })
          : Response.json(
              {
                error: 'Link not found',
                code: 'link_is_blind_test',
                details: { kind: 'blind_test' },
              },
              { status: 404 },
            ),
      ),
    );
    renderSharePage();
    expect((await screen.findByRole('alert')).textContent).toBe('Link not found');
    expect(screen.getByRole('heading', { level: 1, name: 'Blind test' })).toBeTruthy();
  });
});
