import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { COLLECTION_ZIP_MESSAGES, type CollectionZip } from '@takes/contract';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { AuthContext, type AuthContextValue } from '../auth/auth-context';
import { fakePlayer } from '../player/test-support';
import { AudioPlayerContext } from '../player/use-audio-player';
import type { SharedCollectionPage } from './collection-share-api';
import { DownloadAll } from './download-all';
import { SharePage } from './share-page';

const HASH = 'CoLlEcTiOnKeY0123456789';
const base = `/api/collection-links/${HASH}`;
const fileUrl = `${base}/zip/z1/file`;

function zip(overrides: Partial<CollectionZip> = {}): CollectionZip {
  return {
    id: 'z1',
    status: 'pending',
    done: 0,
    total: 3,
    file_url: null,
    expires_at: '2026-11-27T10:00:00.000Z',
    ...overrides,
  };
}

const ready = () => zip({ status: 'ready', done: 3, file_url: fileUrl });

let startAnswer: () => Response;
/** Each status request answers the next of these (the last one repeats). */
let statuses: (() => Response)[];
let sent: { url: string; method: string }[];
let clicked: string[];

beforeEach(() => {
  startAnswer = () => Response.json(zip(), { status: 202 });
  statuses = [() => Response.json(ready())];
  sent = [];
  clicked = [];
  let next = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      sent.push({ url, method });
      if (url === `${base}/zip` && method === 'POST') return Promise.resolve(startAnswer());
      if (/^\/api\/collection-links\/\w+\/zip\/z\d$/.test(url) && method === 'GET') {
        const answer = statuses[Math.min(next++, statuses.length - 1)]!;
        return Promise.resolve(answer());
      }
      return Promise.resolve(Response.json({ error: 'Not found' }, { status: 404 }));
    }),
  );
  // Following the link is the browser's download: only which link was clicked is noted.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this.getAttribute('href') ?? '');
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function renderDownloadAll() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DownloadAll hash={HASH} collectionName="Road trip" />
    </QueryClientProvider>,
  );
}

const starts = () => sent.filter((r) => r.url === `${base}/zip` && r.method === 'POST').length;

describe("'Download all' on a shared collection", () => {
  it('starts the zip, shows its progress, then starts the download and offers it again; axe clean', async () => {
    statuses = [
      () => Response.json(zip({ status: 'building', done: 1 })),
      () => Response.json(ready()),
    ];
    renderDownloadAll();
    fireEvent.click(screen.getByRole('button', { name: 'Download all' }));
    const bar = await screen.findByRole('progressbar', { name: /Preparing/ });
    expect(starts()).toBe(1);
    await vi.waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('1'), { timeout: 3000 });
    expect(screen.getByText('Preparing 2 of 3…')).toBeTruthy();
    expect(bar.getAttribute('aria-valuemax')).toBe('3');
    expect(bar.getAttribute('aria-valuetext')).toBe('Preparing 2 of 3…');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Download all' }).disabled).toBe(
      true,
    );
    expect(await axeViolations()).toEqual([]);

    const again = await screen.findByRole(
      'link',
      { name: 'Download Road trip.zip again' },
      { timeout: 3000 },
    );
    expect(again.getAttribute('href')).toBe(fileUrl);
    expect(again.hasAttribute('download')).toBe(true);
    expect(clicked).toEqual([fileUrl]);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText(/Your download has started/)).toBeTruthy();
    expect(await axeViolations()).toEqual([]);

    // Pressed again: the server hands out the same ready zip, and the download starts again.
    startAnswer = () => Response.json(ready(), { status: 202 });
    fireEvent.click(screen.getByRole('button', { name: 'Download all' }));
    await vi.waitFor(() => expect(clicked).toEqual([fileUrl, fileUrl]));
    expect(starts()).toBe(2);
  });

  it('says in an Alert why the server refused, and when the zip could not be made', async () => {
    startAnswer = () =>
      Response.json({ error: 'Downloads are not allowed for this link' }, { status: 403 });
    renderDownloadAll();
    fireEvent.click(screen.getByRole('button', { name: 'Download all' }));
    const refused = await screen.findByRole('alert');
    expect(refused.textContent).toBe('Downloads are not allowed for this link');
    expect(screen.queryByRole('progressbar')).toBeNull();

    startAnswer = () => Response.json(zip(), { status: 202 });
    statuses = [() => Response.json(zip({ status: 'failed', done: 1 }))];
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(COLLECTION_ZIP_MESSAGES.failed),
    );
    expect(clicked).toEqual([]);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();

    startAnswer = () => Response.json({ error: COLLECTION_ZIP_MESSAGES.tooMany }, { status: 429 });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(COLLECTION_ZIP_MESSAGES.tooMany),
    );
  });

  it("asks the server again before 'Download … again': a zip out of date is replaced by a new one", async () => {
    statuses = [() => Response.json(ready())];
    startAnswer = () => Response.json(ready(), { status: 202 });
    renderDownloadAll();
    fireEvent.click(screen.getByRole('button', { name: 'Download all' }));
    const again = await screen.findByRole('link', { name: 'Download Road trip.zip again' });
    expect(clicked).toEqual([fileUrl]);

    // Still the same takes: the server hands out the same zip, whose download starts again.
    fireEvent.click(again);
    await vi.waitFor(() => expect(clicked).toEqual([fileUrl, fileUrl]));
    expect(starts()).toBe(2);

    // An item left the link since: the server starts a new zip, and that one downloads.
    const newFile = `${base}/zip/z2/file`;
    startAnswer = () => Response.json(zip({ id: 'z2', total: 2 }), { status: 202 });
    statuses = [
      () => Response.json(zip({ id: 'z2', status: 'ready', done: 2, total: 2, file_url: newFile })),
    ];
    fireEvent.click(screen.getByRole('link', { name: 'Download Road trip.zip again' }));
    await vi.waitFor(() => expect(clicked).toEqual([fileUrl, fileUrl, newFile]), { timeout: 3000 });
    expect(starts()).toBe(3);
    expect(
      screen.getByRole('link', { name: 'Download Road trip.zip again' }).getAttribute('href'),
    ).toBe(newFile);
  });

  it('starts a new zip once when the server says the one being prepared is out of date', async () => {
    let startsAnswered = 0;
    startAnswer = () =>
      Response.json(zip(startsAnswered++ === 0 ? {} : { id: 'z2', total: 2 }), { status: 202 });
    const newFile = `${base}/zip/z2/file`;
    statuses = [
      () => Response.json({ error: COLLECTION_ZIP_MESSAGES.outOfDate }, { status: 410 }),
      () => Response.json(zip({ id: 'z2', status: 'ready', done: 2, total: 2, file_url: newFile })),
    ];
    renderDownloadAll();
    fireEvent.click(screen.getByRole('button', { name: 'Download all' }));
    await vi.waitFor(() => expect(clicked).toEqual([newFile]), { timeout: 3000 });
    expect(starts()).toBe(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is on the collection share page only when the link allows downloads', async () => {
    const page = (downloadEnabled: boolean): SharedCollectionPage => ({
      name: 'Road trip',
      description: null,
      cover_url: null,
      recipient_name: null,
      download_enabled: downloadEnabled,
      items: [
        {
          id: 'i1',
          position: 0,
          kind: 'version',
          title: 'Opening',
          project_name: 'Night Drive',
          commentable: true,
          duration: 100,
          download_enabled: downloadEnabled,
          stream_url: `${base}/items/i1/stream`,
          download_url: downloadEnabled ? `${base}/items/i1/download` : null,
        },
      ],
    });
    const signedOut: AuthContextValue = {
      status: 'signed-out',
      user: null,
      refresh: () => Promise.resolve(),
      signOut: () => Promise.resolve(),
      acceptSession: () => undefined,
    };
    for (const downloadEnabled of [true, false]) {
      vi.stubGlobal(
        'fetch',
        vi.fn((url: string) =>
          Promise.resolve(
            url === base
              ? Response.json(page(downloadEnabled))
              : Response.json(
                  {
                    error: 'Link not found',
                    code: 'link_is_collection',
                    details: { kind: 'collection' },
                  },
                  { status: 404 },
                ),
          ),
        ),
      );
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const router = createMemoryRouter([{ path: '/share/:hash', element: <SharePage /> }], {
        initialEntries: [`/share/${HASH}`],
      });
      render(
        <QueryClientProvider client={client}>
          <AuthContext value={signedOut}>
            <AudioPlayerContext value={fakePlayer()}>
              <RouterProvider router={router} />
            </AudioPlayerContext>
          </AuthContext>
        </QueryClientProvider>,
      );
      await screen.findByRole('heading', { name: 'Road trip' });
      const section = screen.queryByRole('region', { name: 'Download all' });
      if (downloadEnabled)
        expect(within(section!).getByRole('button', { name: 'Download all' })).toBeTruthy();
      else expect(section).toBeNull();
      cleanup();
    }
  });
});
