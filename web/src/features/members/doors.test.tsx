import type { AccessRequest, InviteLink } from '@takes/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, signedIn, signedOut, stubApi } from '../repos/test-support';
import { RequestAccess } from '../share/request-access';
import { AccessRequestsSection } from './access-requests-section';
import { InviteLinksSection } from './invite-links-section';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const link: InviteLink = {
  id: 'l1',
  name: 'Band chat',
  role: 'editor',
  max_uses: 5,
  uses: 2,
  uses_left: 3,
  created_at: '2026-02-01T10:00:00.000Z',
  expires_at: '2026-02-08T10:00:00.000Z',
  url: 'http://localhost/join/AAAAAAAAAAAAAAAAAAAAAA',
};

const request: AccessRequest = {
  id: 'r1',
  user_id: 'u9',
  name: 'Maya',
  email: 'maya@example.com',
  avatar_url: null,
  note: 'I play bass on this.',
  created_at: '2026-02-01T10:00:00.000Z',
};

/** The bodies sent to `path` with `method`. */
function bodiesTo(fetchMock: ReturnType<typeof stubApi>, method: string, path: string) {
  return fetchMock.mock.calls
    .filter(([url, init]) => init?.method === method && new URL(url, 'http://x').pathname === path)
    .map(([, init]) => (typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : {}));
}

describe('invite links in the Members dialog', () => {
  it("lists live links with their uses left and 'Revoke', and makes a new one", async () => {
    const fetchMock = stubApi({
      '/api/projects/p1/invite-links': (_url: URL, init?: RequestInit) =>
        init?.method === 'POST' ? { status: 201, body: link } : { links: [link] },
      '/api/invite-links/l1': () => Promise.resolve(new Response(null, { status: 204 })),
    });
    renderAt(<InviteLinksSection projectId="p1" />, { pattern: '/here', url: '/here' });
    const row = await screen.findByRole('listitem');
    expect(row.textContent).toContain('Band chat');
    expect(row.textContent).toContain('3 of 5 uses left');
    const address = within(row).getByRole('textbox', { name: 'Invite link: Band chat' });
    expect((address as HTMLInputElement).value).toBe(link.url);

    const form = screen.getByRole('form', { name: 'Make an invite link' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Uses' }), {
      target: { value: '0' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Make invite link' }));
    await within(form).findByText('Uses must be a whole number from 1 to 50.');
    fireEvent.change(within(form).getByRole('textbox', { name: 'Uses' }), {
      target: { value: '2' },
    });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Link role' }), {
      target: { value: 'commenter' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Make invite link' }));
    await waitFor(() =>
      expect(bodiesTo(fetchMock, 'POST', '/api/projects/p1/invite-links')).toEqual([
        { role: 'commenter', max_uses: 2, expires_in_days: 7 },
      ]),
    );

    fireEvent.click(within(row).getByRole('button', { name: 'Revoke invite link Band chat' }));
    await screen.findByText("Invite link 'Band chat' revoked.");
  });
});

describe('access requests in the Members dialog', () => {
  it('grants at the role picked (Viewer by default) and says so', async () => {
    let open = [request];
    const fetchMock = stubApi({
      '/api/projects/p1/access-requests': () => ({ requests: open }),
      '/api/access-requests/r1/grant': () => {
        open = [];
        return { user_id: 'u9', role: 'commenter' };
      },
    });
    renderAt(<AccessRequestsSection projectId="p1" />, { pattern: '/here', url: '/here' });
    const row = await screen.findByRole('listitem');
    expect(row.textContent).toContain('I play bass on this.');
    const role = within(row).getByRole('combobox', { name: 'Role for Maya' });
    expect((role as HTMLSelectElement).value).toBe('viewer');
    fireEvent.change(role, { target: { value: 'commenter' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Grant access to Maya' }));
    await screen.findByText('Maya joined as Commenter.');
    expect(bodiesTo(fetchMock, 'POST', '/api/access-requests/r1/grant')).toEqual([
      { role: 'commenter' },
    ]);
    await screen.findByText('No one is asking to join.');
  });
});

describe("'Request access' on a share page", () => {
  it('offers sign-in or sign-up first to a signed-out listener, coming back with the form open', () => {
    stubApi({});
    renderAt(
      <RequestAccess target={{ kind: 'version', hash: 'abc' }} projectName="Night Drive" />,
      {
        pattern: '/share/:hash',
        url: '/share/abc',
        auth: signedOut,
      },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Request access' }));
    const next = encodeURIComponent('/share/abc?request_access=1');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      `/login?next=${next}`,
    );
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(
      `/login?mode=sign-up&next=${next}`,
    );
  });

  it('sends the note of a signed-in listener and shows the server’s refusal in its words', async () => {
    const fetchMock = stubApi({
      '/api/links/hash/abc/access-requests': {
        status: 409,
        body: { error: 'You are already a member of this project.', code: 'conflict' },
      },
    });
    renderAt(
      <RequestAccess target={{ kind: 'version', hash: 'abc' }} projectName="Night Drive" />,
      {
        pattern: '/share/:hash',
        url: '/share/abc?request_access=1',
        auth: signedIn,
      },
    );
    const form = screen.getByRole('form', { name: 'Request access' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Note (optional)' }), {
      target: { value: ' Hi Olga ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Request access' }));
    await screen.findByText('You are already a member of this project.');
    expect(bodiesTo(fetchMock, 'POST', '/api/links/hash/abc/access-requests')).toEqual([
      { note: 'Hi Olga' },
    ]);
  });
});
