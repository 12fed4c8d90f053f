import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../repos/test-support';
import { GlobalPlayer } from './global-player';
import { fakePlayer } from './test-support';
import { AudioPlayerContext, type PlayerTrack } from './use-audio-player';

// wavesurfer.js draws on a canvas jsdom does not have.
vi.mock('./player-waveform', () => ({ PlayerWaveform: () => <div /> }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPlayer(
  track: PlayerTrack,
  player = fakePlayer(track, { duration: 60 }),
  answers: Record<string, unknown> = {},
) {
  stubApi(answers);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AudioPlayerContext value={player}>
        <GlobalPlayer onShare={vi.fn()} />
      </AudioPlayerContext>
    </QueryClientProvider>,
  );
}

const memberTrack: PlayerTrack = {
  id: 'v1',
  title: 'First mix',
  audioUrl: '/api/versions/v1/stream',
  versionId: 'v1',
};

describe('GlobalPlayer: what a track offers', () => {
  it("offers Auto at once, and the version's qualities once they are known", async () => {
    let answer: (body: unknown) => void = () => undefined;
    const qualities = new Promise<Response>((resolve) => {
      answer = (body) => resolve(new Response(JSON.stringify(body), { status: 200 }));
    });
    renderPlayer(memberTrack, undefined, { '/api/versions/v1/qualities': () => qualities });
    const option = (name: RegExp) =>
      within(screen.getByRole('combobox', { name: 'Quality' })).getByRole<HTMLOptionElement>(
        'option',
        { name },
      );
    // Before the answer (and before the select's own code has loaded) only Auto can be chosen.
    expect(option(/^Auto$/).disabled).toBe(false);
    expect(option(/^High/).disabled).toBe(true);
    answer({
      available: ['original', 'high'],
      qualities: {
        original: { file_size: 1000, format: 'flac' },
        high: { file_size: 500, format: 'mp3' },
      },
    });
    await vi.waitFor(() => expect(option(/^High \(320k\)$/).disabled).toBe(false));
    expect(option(/^Original \(FLAC\)$/).disabled).toBe(false);
    expect(option(/^Standard/).disabled).toBe(true);
  });

  it('offers download and share for a version the caller may share', () => {
    renderPlayer({ ...memberTrack, shareable: true });
    expect(screen.getByRole('link', { name: 'Download track' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Share track' })).toBeTruthy();
  });

  it('offers no share button to a role that cannot create links', () => {
    renderPlayer({ ...memberTrack, shareable: false });
    expect(screen.getByRole('link', { name: 'Download track' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Share track' })).toBeNull();
  });

  it("offers neither for a Public project's version", () => {
    renderPlayer({
      id: 'public:v1',
      title: 'First mix',
      audioUrl: '/api/public/versions/v1/audio',
      shareable: false,
    });
    expect(screen.queryByRole('link', { name: 'Download track' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Share track' })).toBeNull();
  });
});

describe('GlobalPlayer: a list being played', () => {
  it('offers Previous and Next only while a list plays, Next not at its end', () => {
    renderPlayer(memberTrack);
    expect(screen.queryByRole('button', { name: 'Next track' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Previous track' })).toBeNull();
    cleanup();

    const second: PlayerTrack = { ...memberTrack, id: 'v2', versionId: 'v2', title: 'Second' };
    const player = {
      ...fakePlayer(memberTrack, { duration: 60 }),
      queue: { tracks: [memberTrack, second], index: 0 },
    };
    renderPlayer(memberTrack, player);
    fireEvent.click(screen.getByRole('button', { name: 'Next track' }));
    expect(player.next).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Previous track' }));
    expect(player.previous).toHaveBeenCalledTimes(1);
    cleanup();

    renderPlayer(second, {
      ...fakePlayer(second, { duration: 60 }),
      queue: { tracks: [memberTrack, second], index: 1 },
    });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next track' }).disabled).toBe(
      true,
    );
  });
});

/** Makes `matchMedia` answer as a phone (below `sm`) or as a wider screen would. */
function stubScreen(narrow: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: narrow && query.includes('max-width: 639'),
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  );
}

function spacerHeight(): string {
  return screen.getByTestId('player-spacer').style.height;
}

describe('GlobalPlayer: the compact bar on a phone', () => {
  const artistTrack: PlayerTrack = { ...memberTrack, artist: 'The Band' };

  it('shows play/pause, the title, a progress line and an expand button, nothing more', () => {
    stubScreen(true);
    const player = fakePlayer(artistTrack, { duration: 60, currentTime: 15, isPlaying: true });
    renderPlayer(artistTrack, player);
    const bar = screen.getByRole('region', { name: 'Audio player' });
    expect(bar.style.height).toBe('64px');
    expect(within(bar).getByTestId('player-title').textContent).toBe('First mix');
    expect(within(bar).getByText('The Band')).toBeTruthy();
    expect(within(bar).getByTestId('player-progress').style.width).toBe('25%');
    const expand = within(bar).getByRole('button', { name: 'Expand player' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    // The full player's controls wait in the sheet.
    expect(within(bar).queryByRole('slider', { name: 'Seek' })).toBeNull();
    expect(within(bar).queryByRole('slider', { name: 'Volume' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Loop' })).toBeNull();
    expect(within(bar).queryByRole('combobox')).toBeNull();

    fireEvent.click(within(bar).getByRole('button', { name: 'Pause' }));
    expect(player.togglePlay).toHaveBeenCalledTimes(1);
  });

  it('expands to the full player as a sheet and collapses back, moving focus with it', () => {
    stubScreen(true);
    renderPlayer(memberTrack);
    fireEvent.click(screen.getByRole('button', { name: 'Expand player' }));

    const sheet = screen.getByRole('region', { name: 'Audio player' });
    expect(sheet.getAttribute('data-testid')).toBe('player-sheet');
    const collapse = within(sheet).getByRole('button', { name: 'Collapse player' });
    expect(collapse.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(collapse);
    expect(within(sheet).getByRole('slider', { name: 'Seek' })).toBeTruthy();
    expect(within(sheet).getByRole('slider', { name: 'Volume' })).toBeTruthy();
    expect(within(sheet).getByRole('button', { name: 'Skip back 10 seconds' })).toBeTruthy();
    expect(within(sheet).getByRole('button', { name: 'Loop' })).toBeTruthy();
    expect(within(sheet).getByRole('combobox')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Expand player' })).toBeNull();

    fireEvent.click(collapse);
    expect(screen.queryByRole('button', { name: 'Collapse player' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Expand player' }));
  });

  it('closes the sheet on Escape', () => {
    stubScreen(true);
    renderPlayer(memberTrack);
    fireEvent.click(screen.getByRole('button', { name: 'Expand player' }));
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('player-sheet')).toBeNull();
    expect(screen.getByRole('button', { name: 'Expand player' })).toBeTruthy();
  });

  it('keeps the full player, with no expand button, at sm and wider', () => {
    stubScreen(false);
    renderPlayer(memberTrack);
    expect(screen.queryByRole('button', { name: 'Expand player' })).toBeNull();
    expect(screen.getByRole('slider', { name: 'Seek' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Loop' })).toBeTruthy();
  });
});

/** A ResizeObserver whose callbacks the test calls (each element is measured when observed). */
function stubResizeObserver(): (() => void)[] {
  const observers: (() => void)[] = [];
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly callback: () => void) {
        observers.push(() => this.callback());
      }
      observe() {}
      disconnect() {}
    },
  );
  return observers;
}

describe('GlobalPlayer: the page keeps room for the bar', () => {
  it('leaves a spacer as tall as the compact bar, also while the taller sheet covers the page', () => {
    stubScreen(true);
    const observers = stubResizeObserver();
    // The compact bar measures its set height; anything else (the sheet) 300 px.
    const rect = vi
      .spyOn(HTMLElement.prototype, 'getBoundingClientRect')
      .mockImplementation(function (this: HTMLElement) {
        if (this.tagName !== 'SECTION') return { height: 0 } as DOMRect;
        return { height: parseFloat(this.style.height) || 300 } as DOMRect;
      });
    try {
      renderPlayer(memberTrack);
      act(() => observers.forEach((notify) => notify()));
      const bar = screen.getByRole('region', { name: 'Audio player' });
      expect(spacerHeight()).toBe(bar.style.height);
      fireEvent.click(screen.getByRole('button', { name: 'Expand player' }));
      act(() => observers.forEach((notify) => notify()));
      expect(spacerHeight()).toBe('64px');
    } finally {
      rect.mockRestore();
    }
  });

  it('leaves a spacer as tall as the idle bar when nothing plays', () => {
    stubScreen(true);
    stubApi({});
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <AudioPlayerContext value={fakePlayer(null)}>
          <GlobalPlayer />
        </AudioPlayerContext>
      </QueryClientProvider>,
    );
    expect(screen.getByText('No track currently playing')).toBeTruthy();
    expect(spacerHeight()).toBe('56px');
  });

  it('follows the measured height of the full player on a wider screen', () => {
    stubScreen(false);
    const observers = stubResizeObserver();
    let height = 150;
    const rect = vi
      .spyOn(HTMLElement.prototype, 'getBoundingClientRect')
      .mockImplementation(function (this: HTMLElement) {
        return { height: this.tagName === 'SECTION' ? height : 0 } as DOMRect;
      });
    try {
      renderPlayer(memberTrack);
      // The first height comes with the observer's first callback, after the browser's layout.
      act(() => observers.forEach((notify) => notify()));
      expect(spacerHeight()).toBe('150px');
      height = 201.4;
      act(() => observers.forEach((notify) => notify()));
      expect(spacerHeight()).toBe('202px');
    } finally {
      rect.mockRestore();
    }
  });
});
