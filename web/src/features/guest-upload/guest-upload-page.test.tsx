import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { GuestUploadPage as Page } from '@takes/contract';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GuestUploadPage } from './guest-upload-page';

const KEY = 'UpLoAdKeY0123456789abc';

let locked: boolean;
let page: Page;

beforeEach(() => {
  locked = false;
  page = {
    name: 'Bass takes',
    message: 'Two takes of the bridge, please',
    expires_at: '2030-01-01T00:00:00.000Z',
    files_left: 2,
    bytes_left: 10 * 1024 * 1024,
    max_file_bytes: 10 * 1024 * 1024,
    upload_endpoint: '/api/guest-uploads',
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (url === `/api/upload/${KEY}` && method === 'GET')
        return Promise.resolve(
          locked
            ? Response.json(
                { error: 'This link needs a password', code: 'link_password_required' },
                { status: 401 },
              )
            : Response.json(page),
        );
      if (url === `/api/upload/${KEY}/unlock` && method === 'POST') {
        locked = false;
        return Promise.resolve(new Response(null, { status: 204 }));
      }
      return Promise.resolve(
        Response.json({ error: 'Not found', code: 'not_found' }, { status: 404 }),
      );
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/upload/:key', element: <GuestUploadPage /> }], {
    initialEntries: [`/upload/${KEY}`],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const wav = (name: string, bytes = 1000) =>
  new File([new Uint8Array(bytes)], name, { type: 'audio/wav' });

describe("an upload link's guest page", () => {
  it('asks for the password first, then shows the link’s own words', async () => {
    locked = true;
    renderPage();
    expect(await screen.findByRole('heading', { name: 'This link needs a password' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Password'), {
      target: { value: 'violet-mixdown-47' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Bass takes' })).toBeTruthy();
    expect(screen.getByText('Two takes of the bridge, please')).toBeTruthy();
  });

  it('checks each file as the upload page does, and against what the link still takes', async () => {
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Bass takes' });
    fireEvent.change(screen.getByLabelText('Audio files'), {
      target: {
        files: [
          wav('take 1.wav'),
          new File(['x'], 'notes.txt', { type: 'text/plain' }),
          wav('take 2.wav'),
          wav('take 3.wav'),
        ],
      },
    });
    const items = within(screen.getByRole('list', { name: 'Chosen files' })).getAllByRole(
      'listitem',
    );
    expect(items).toHaveLength(4);
    expect(items[1]?.textContent).toContain('Invalid file type.');
    expect(items[3]?.textContent).toContain('This link has taken all the files it can.');
    expect(screen.getByRole('button', { name: 'Send 2 files' })).toBeTruthy();
  });

  it('asks for a name before sending', async () => {
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Bass takes' });
    fireEvent.change(screen.getByLabelText('Audio files'), { target: { files: [wav('a.wav')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Send 1 file' }));
    expect(await screen.findByText('Please enter your name')).toBeTruthy();
  });

  it('says when the link is gone', async () => {
    page = { ...page };
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          Response.json({ error: 'This link has expired', code: 'link_expired' }, { status: 410 }),
        ),
      ),
    );
    renderPage();
    expect(await screen.findByText('This link has expired')).toBeTruthy();
  });
});
