import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { DownloadPage } from './download-page';

let fetchMock: Mock<typeof fetch>;
let assign: ReturnType<typeof vi.fn>;

function renderPage() {
  render(
    <MemoryRouter>
      <DownloadPage />
    </MemoryRouter>,
  );
}

function buttons() {
  return screen.getAllByRole<HTMLButtonElement>('button');
}

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DownloadPage', () => {
  it('offers the three installers', () => {
    renderPage();
    expect(screen.getByRole('button', { name: /macOS\s*DMG/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Windows\s*EXE/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Linux\s*AppImage/ })).toBeTruthy();
  });

  it('disables every button while preparing, then redirects to the installer', async () => {
    let answer: (response: Response) => void = () => {};
    const pending = new Promise<Response>((resolve) => (answer = resolve));
    fetchMock.mockImplementationOnce(() => pending);
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: /Windows/ }));

    // The client sends the request a moment after the click.
    await waitFor(() =>
      expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/updates/desktop/latest/win'),
    );
    await waitFor(() => expect(buttons().every((button) => button.disabled)).toBe(true));
    expect(screen.getByText('Preparing your download…')).toBeTruthy();

    answer(
      new Response(
        JSON.stringify({ platform: 'win', url: '/downloads/Takes-1.2.0.exe', version: '1.2.0' }),
        { status: 200 },
      ),
    );
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/downloads/Takes-1.2.0.exe'));
    expect(screen.getByText(/Takes Desktop 1\.2\.0 should start now/)).toBeTruthy();
    expect(buttons().some((button) => button.disabled)).toBe(false);
  });

  it("shows the server's error in red when there is no installer", async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ error: 'no_url' }), { status: 404 }),
    );
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: /macOS/ }));
    const error = await screen.findByText('no_url');
    expect(error.className).toContain('text-red-600');
    expect(assign).not.toHaveBeenCalled();
    expect(buttons().some((button) => button.disabled)).toBe(false);
  });

  it('shows how to use the takes CLI from this server when no installer is configured', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ error: 'no_url' }), { status: 404 }),
    );
    renderPage();
    expect(screen.queryByText('Use the takes command-line tool instead')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Linux/ }));
    expect(await screen.findByText('Use the takes command-line tool instead')).toBeTruthy();
    const origin = window.location.origin;
    const commands = Array.from(document.querySelectorAll('code')).map((c) => c.textContent);
    expect(commands).toEqual(
      expect.arrayContaining([
        `npm install -g ${origin}/downloads/takes-cli.tgz`,
        `npx --yes --package ${origin}/downloads/takes-cli.tgz takes --help`,
        `takes login --server ${origin}`,
        'takes link register',
        'takes watch ~/Music/Bounces --repo "Night Drive"',
      ]),
    );
  });

  it('keeps the CLI instructions for a missing installer only', async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 500 }));
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: /Linux/ }));
    await screen.findByText('failed');
    expect(screen.queryByText('Use the takes command-line tool instead')).toBeNull();
  });

  it("shows 'failed' when the server answers an error without a message", async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 500 }));
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: /Linux/ }));
    expect((await screen.findByText('failed')).className).toContain('text-red-600');
  });

  it("shows 'no_url' when the answer carries no URL", async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ platform: 'linux', url: '', version: null }), { status: 200 }),
    );
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: /Linux/ }));
    expect(await screen.findByText('no_url')).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows 'Download failed' when the request never gets an answer", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: /macOS/ }));
    expect((await screen.findByText('Download failed')).className).toContain('text-red-600');
  });
});
