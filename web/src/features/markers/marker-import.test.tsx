import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MARKER_MESSAGES, reaperCsv, type Role } from '@takes/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { MarkerImport } from './marker-import';

let fetchMock: Mock<typeof fetch>;

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>(() =>
    Promise.resolve(Response.json({ id: 'c-new' }, { status: 201 })),
  );
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The comment panel as VersionComments lays it out: the import placed inside it. */
function renderPanel(role: Role = 'commenter', duration: number | null = 60) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <div data-testid="panel">
        <p>The comments</p>
        <MarkerImport versionId="v1" role={role} duration={duration} />
      </div>
    </QueryClientProvider>,
  );
}

const labels = '2.000000\t2.000000\tBass too loud\n5.500000\t9.000000\tLovely fill here\n';

/** A chosen file; jsdom's File has no arrayBuffer(), which browsers have, so it gets one. */
function file(text: string, name = 'labels.txt') {
  const chosen = new File([text], name, { type: 'text/plain' });
  const bytes = new TextEncoder().encode(text);
  Object.defineProperty(chosen, 'arrayBuffer', { value: () => Promise.resolve(bytes.buffer) });
  return chosen;
}

/** Drops files on the panel's text, as a person drops them anywhere on the panel. */
function drop(...files: File[]) {
  const target = screen.getByText('The comments');
  const dataTransfer = { files, types: ['Files'] };
  fireEvent.dragEnter(target, { dataTransfer });
  fireEvent.dragOver(target, { dataTransfer });
  fireEvent.drop(target, { dataTransfer });
}

/** The POST bodies sent so far. */
function posted() {
  return fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([input, init]) => ({
      url: typeof input === 'string' ? input : '',
      body: JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as unknown,
    }));
}

describe('MarkerImport', () => {
  it('lists what a dropped label track will post, and posts it as comments', async () => {
    renderPanel();
    drop(file(labels));
    const dialog = await screen.findByRole('dialog', { name: 'Import markers' });
    expect(dialog.textContent).toContain('From labels.txt');
    const rows = within(within(dialog).getByRole('list', { name: 'Comments to post' }))
      .getAllByRole('listitem')
      .map((row) => row.textContent);
    expect(rows).toEqual(['0:02Bass too loud', '0:05–0:09Lovely fill here']);
    expect(await axeViolations()).toEqual([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Post 2 comments' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted()).toEqual([
      {
        url: '/api/versions/v1/comments',
        body: { content: 'Bass too loud', timestamp: 2, end_timestamp: null, team_only: false },
      },
      {
        url: '/api/versions/v1/comments',
        body: { content: 'Lovely fill here', timestamp: 5.5, end_timestamp: 9, team_only: false },
      },
    ]);
    expect(screen.getByRole('status').textContent).toBe('Posted 2 comments.');
  });

  it("takes a REAPER CSV through 'Import markers…' too, and Cancel posts nothing", async () => {
    const { container } = renderPanel('editor');
    expect(screen.getByRole('button', { name: 'Import markers…' })).toBeTruthy();
    const input = container.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    const csv = reaperCsv([
      { start: 70, end: null, label: 'Past the end' },
      { start: 12, end: null, label: 'Snare, too loud' },
    ]);
    fireEvent.change(input, { target: { files: [file(csv, 'markers.csv')] } });
    const dialog = await screen.findByRole('dialog', { name: 'Import markers' });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(['0:12Snare, too loud']);
    expect(dialog.textContent).toContain('1 marker starts after the end of this version');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted()).toEqual([]);
  });

  it('says why a file is not taken: not a marker file, or no markers', async () => {
    renderPanel();
    drop(file('just some notes\n'));
    expect((await screen.findByRole('alert')).textContent).toBe(MARKER_MESSAGES.unreadable);
    drop(file('#,Name,Start,End,Length\n'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(MARKER_MESSAGES.empty));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps the ones not posted when posting fails part-way', async () => {
    fetchMock
      .mockResolvedValueOnce(Response.json({ id: 'c1' }, { status: 201 }))
      .mockResolvedValueOnce(Response.json({ error: 'The server is busy' }, { status: 503 }));
    renderPanel();
    drop(file(labels));
    const dialog = await screen.findByRole('dialog', { name: 'Import markers' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Post 2 comments' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe('1 comment was posted, then: The server is busy');
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(['0:05–0:09Lovely fill here']);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Post 1 comment' }));
      await Promise.resolve();
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted().map((request) => (request.body as { content: string }).content)).toEqual([
      'Bass too loud',
      'Lovely fill here',
      'Lovely fill here',
    ]);
    expect(screen.getByRole('status').textContent).toBe('Posted 2 comments.');
  });

  it('offers nothing to a Viewer, and a Viewer drop is left alone', () => {
    renderPanel('viewer');
    expect(screen.queryByRole('button', { name: 'Import markers…' })).toBeNull();
    drop(file(labels));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
