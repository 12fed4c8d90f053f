import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommitPage } from './commit-page';
import { bounce, renderAt, repository, stubApi } from './test-support';

// wavesurfer.js draws on a canvas jsdom does not have.
vi.mock('../bounces/waveform-canvas', () => ({
  WaveformCanvas: () => <div data-testid="waveform-canvas" />,
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const sha = '0123456789abcdef'.repeat(2) + '01234567';
const bouncesPath = `/api/repos/r1/commits/${sha}/bounces`;

function renderCommit() {
  return renderAt(<CommitPage />, {
    pattern: '/repositories/:repoId/commit/:sha',
    url: `/repositories/r1/commit/${sha}`,
  });
}

describe('CommitPage', () => {
  it('shows 3 skeletons while loading, then one card per bounce', async () => {
    // The answer is made before the page asks: the client may ask a moment after the render.
    let answer: (response: Response) => void = () => undefined;
    const pending = new Promise<Response>((resolve) => (answer = resolve));
    stubApi({
      '/api/repos/r1': { repo: repository() },
      [bouncesPath]: () => pending,
    });
    renderCommit();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      `Commit ${sha.slice(0, 12)}`,
    );
    expect(document.title).toBe(`Commit ${sha.slice(0, 12)} · Takes`);
    expect(screen.getAllByTestId('bounce-skeleton')).toHaveLength(3);

    answer(
      new Response(
        JSON.stringify({
          bounces: [
            bounce({ id: 'b1', title: 'Master', duration: 12.6, mime: 'audio/wav' }),
            bounce({
              id: 'b2',
              title: '',
              filename: 'alt.flac',
              mime: 'audio/flac',
              duration: 3.2,
            }),
          ],
        }),
      ),
    );
    const list = await screen.findByRole('list', { name: 'Commit bounces' });
    const cards = within(list).getAllByRole('article');
    expect(cards).toHaveLength(2);
    const [master, alt] = cards as [HTMLElement, HTMLElement];
    expect(within(master).getByRole('heading', { name: 'Master' })).toBeTruthy();
    expect(within(master).getByText('Commit bounces')).toBeTruthy();
    expect(within(master).getByText('audio/wav')).toBeTruthy();
    expect(within(master).getByText('13s')).toBeTruthy();
    expect(within(master).getByRole('button', { name: 'Play Master' })).toBeTruthy();
    expect(within(alt).getByRole('heading', { name: 'alt.flac' })).toBeTruthy();
    expect(within(alt).getByText('3s')).toBeTruthy();
  });

  it("shows the empty state, and the server's message or 'Failed to load' on errors", async () => {
    stubApi({ '/api/repos/r1': { repo: repository() }, [bouncesPath]: { bounces: [] } });
    renderCommit();
    expect(await screen.findByText('No bounces for this commit yet.')).toBeTruthy();
    cleanup();

    stubApi({ [bouncesPath]: { status: 404, body: { error: 'Commit not found' } } });
    renderCommit();
    expect((await screen.findByRole('alert')).textContent).toBe('Commit not found');
    cleanup();

    // A server error is retried once (about a second later) before it shows.
    stubApi({ [bouncesPath]: { status: 500, body: {} } });
    renderCommit();
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert.textContent).toBe('Failed to load');
  });
});
