import type { Invitation, Member, MembersResponse } from '@takes/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { Landed, renderAt, stubApi } from '../repos/test-support';
import { MembersDialog } from './members-dialog';
import type { MembersTarget } from './members-api';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function member(overrides: Partial<Member>): Member {
  return {
    user_id: 'u1',
    email: 'me@example.com',
    name: 'Olive Owner',
    avatar_url: null,
    role: 'owner',
    joined_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const owner = member({});
const editor = member({
  user_id: 'u2',
  email: 'ed@example.com',
  name: 'Eddie Editor',
  role: 'editor',
});
const commenter = member({
  user_id: 'u3',
  email: 'cam@example.com',
  name: null,
  role: 'commenter',
});

const invitation: Invitation = {
  id: 'i1',
  email: 'vi@example.com',
  role: 'viewer',
  sent_at: '2026-02-03T10:00:00.000Z',
  expires_at: '2026-02-10T10:00:00.000Z',
};

function membersResponse(overrides: Partial<MembersResponse> = {}): MembersResponse {
  return {
    role: 'owner',
    members: [owner, editor, commenter],
    invitations: [invitation],
    ...overrides,
  };
}

const project: MembersTarget = { kind: 'project', id: 'p1' };
const repository: MembersTarget = { kind: 'repository', id: 'r1' };

function renderDialog(target: MembersTarget = project, onClose = vi.fn()) {
  renderAt(<MembersDialog target={target} targetName="Night Drive" onClose={onClose} />, {
    pattern: '/here',
    url: '/here',
    routes: [{ path: '/dashboard', element: <Landed name="Dashboard" /> }],
  });
  return onClose;
}

type FetchMock = ReturnType<typeof stubApi>;

/** The requests sent with `method` (path and parsed JSON body). */
function sent(fetchMock: FetchMock, method: string) {
  return fetchMock.mock.calls
    .filter(([, init]) => (init?.method ?? 'GET') === method)
    .map(([url, init]) => ({
      path: new URL(url, 'http://localhost').pathname,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));
}

/** Answers GET with the list and everything else with `write` (by method). */
function stubMembers(
  listPath: string,
  list: MembersResponse,
  writes: Record<string, Record<string, unknown>> = {},
) {
  const byPath: Record<string, unknown> = {};
  const paths = new Set([listPath, ...Object.keys(writes)]);
  for (const path of paths) {
    byPath[path] = (url: URL, init: RequestInit | undefined) => {
      const method = init?.method ?? 'GET';
      if (method === 'GET' && path === listPath) return list;
      const answer = writes[path]?.[method];
      if (answer === undefined) return { status: 405, body: { error: 'Not stubbed' } };
      return typeof answer === 'function'
        ? (answer as (url: URL, init: RequestInit | undefined) => unknown)(url, init)
        : answer;
    };
  }
  return stubApi(byPath);
}

const noContent = () => Promise.resolve(new Response(null, { status: 204 }));

describe('MembersDialog, as the owner', () => {
  it("is titled 'Project members' and lists members, their roles and pending invitations", async () => {
    stubMembers('/api/projects/p1/members', membersResponse());
    renderDialog();

    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    const list = await within(dialog).findByRole('list', { name: 'Members' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);

    // The owner row shows 'Owner'; the caller is marked.
    expect(within(rows[0]!).getByText('Owner')).toBeTruthy();
    expect(within(rows[0]!).getByText('(you)')).toBeTruthy();
    expect(within(rows[0]!).queryByRole('combobox')).toBeNull();
    expect(within(rows[0]!).queryByRole('button', { name: /Remove/ })).toBeNull();

    // A member's role select, Remove, and Transfer ownership for an editor only.
    const editorRole = within(rows[1]!).getByRole('combobox', { name: 'Role of Eddie Editor' });
    expect((editorRole as HTMLSelectElement).value).toBe('editor');
    expect(
      within(editorRole)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Viewer', 'Commenter', 'Editor']);
    expect(within(rows[1]!).getByRole('button', { name: 'Remove Eddie Editor' })).toBeTruthy();
    expect(
      within(rows[1]!).getByRole('button', { name: 'Transfer ownership to Eddie Editor' }),
    ).toBeTruthy();
    // Without a display name, the email names the member.
    expect(within(rows[2]!).getByText('cam@example.com')).toBeTruthy();
    expect(within(rows[2]!).queryByRole('button', { name: /Transfer ownership/ })).toBeNull();

    const pending = within(dialog).getByRole('list', { name: 'Pending invitations' });
    expect(within(pending).getByText('vi@example.com')).toBeTruthy();
    expect(within(pending).getByText(/Viewer · Sent/)).toBeTruthy();
    expect(within(pending).getByRole('button', { name: /Resend/ })).toBeTruthy();
    expect(within(pending).getByRole('button', { name: /Revoke/ })).toBeTruthy();

    // The invite form: email, role (default Commenter), Invite.
    expect(within(dialog).getByLabelText('Email')).toBeTruthy();
    const role = within(dialog).getByLabelText<HTMLSelectElement>('Role');
    expect(role.value).toBe('commenter');
    expect([...role.options].map((option) => option.text)).toEqual([
      'Viewer',
      'Commenter',
      'Editor',
    ]);
    expect(within(dialog).getByRole('button', { name: 'Invite' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Leave project' })).toBeNull();
  });

  it('has no axe violations', async () => {
    stubMembers('/api/projects/p1/members', membersResponse());
    renderDialog();
    await screen.findByRole('list', { name: 'Members' });
    expect(await axeViolations()).toEqual([]);
  });

  it('invites with the chosen role and says so; the server refusal is shown as given', async () => {
    const fetchMock = stubMembers('/api/projects/p1/members', membersResponse(), {
      '/api/projects/p1/invitations': {
        POST: (_url: URL, init: RequestInit) => {
          const body = JSON.parse(init.body as string) as { email: string };
          if (body.email === 'ed@example.com') {
            return { status: 409, body: { error: 'ed@example.com is already a member.' } };
          }
          return {
            status: 201,
            body: { ...invitation, id: 'i2', email: body.email, role: 'editor' },
          };
        },
      },
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    await within(dialog).findByRole('list', { name: 'Members' });

    fireEvent.change(within(dialog).getByLabelText('Email'), {
      target: { value: '  New@Example.com ' },
    });
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'editor' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));

    expect(await within(dialog).findByText('Invitation sent to New@Example.com.')).toBeTruthy();
    expect(sent(fetchMock, 'POST')).toEqual([
      { path: '/api/projects/p1/invitations', body: { email: 'New@Example.com', role: 'editor' } },
    ]);
    expect(within(dialog).getByLabelText<HTMLInputElement>('Email').value).toBe('');

    fireEvent.change(within(dialog).getByLabelText('Email'), {
      target: { value: 'ed@example.com' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText('ed@example.com is already a member.')).toBeTruthy();
  });

  it('sends nothing without an email address', async () => {
    const fetchMock = stubMembers('/api/projects/p1/members', membersResponse());
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    await within(dialog).findByRole('list', { name: 'Members' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText('Please enter an email address')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'nope' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText('Please enter a valid email address')).toBeTruthy();
    expect(sent(fetchMock, 'POST')).toEqual([]);
  });

  it('resends and revokes invitations, changes roles and removes members through their routes', async () => {
    const fetchMock = stubMembers('/api/projects/p1/members', membersResponse(), {
      '/api/invitations/i1/resend': { POST: invitation },
      '/api/invitations/i1': { DELETE: noContent },
      '/api/projects/p1/members/u3': {
        PATCH: { ...commenter, role: 'viewer' },
        DELETE: noContent,
      },
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    await within(dialog).findByRole('list', { name: 'Members' });

    fireEvent.click(
      within(dialog).getByRole('button', { name: 'Resend invitation to vi@example.com' }),
    );
    expect(
      await within(dialog).findByText('Invitation sent again to vi@example.com.'),
    ).toBeTruthy();

    fireEvent.click(
      within(dialog).getByRole('button', { name: 'Revoke invitation to vi@example.com' }),
    );
    expect(await within(dialog).findByText('Invitation to vi@example.com revoked.')).toBeTruthy();

    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Role of cam@example.com' }), {
      target: { value: 'viewer' },
    });
    expect(await within(dialog).findByText('cam@example.com is now Viewer.')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove cam@example.com' }));
    expect(await within(dialog).findByText('cam@example.com was removed.')).toBeTruthy();

    expect(sent(fetchMock, 'POST')).toEqual([{ path: '/api/invitations/i1/resend', body: {} }]);
    expect(sent(fetchMock, 'PATCH')).toEqual([
      { path: '/api/projects/p1/members/u3', body: { role: 'viewer' } },
    ]);
    expect(sent(fetchMock, 'DELETE').map((call) => call.path)).toEqual([
      '/api/invitations/i1',
      '/api/projects/p1/members/u3',
    ]);
    // Each change reloads the list.
    expect(sent(fetchMock, 'GET').length).toBeGreaterThanOrEqual(5);
  });

  it('shows the server message when a change is refused', async () => {
    stubMembers('/api/projects/p1/members', membersResponse(), {
      '/api/projects/p1/members/u2': {
        DELETE: { status: 403, body: { error: 'You need Owner access to do this.' } },
      },
      '/api/invitations/i1/resend': {
        POST: {
          status: 429,
          body: { error: 'Too many invitations sent. Please try again later.' },
        },
      },
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    await within(dialog).findByRole('list', { name: 'Members' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Eddie Editor' }));
    expect(await within(dialog).findByText('You need Owner access to do this.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /Resend invitation/ }));
    expect(
      await within(dialog).findByText('Too many invitations sent. Please try again later.'),
    ).toBeTruthy();
  });

  it('transfers ownership to an editor after a confirmation; Escape closes only the confirmation', async () => {
    const fetchMock = stubMembers('/api/projects/p1/members', membersResponse(), {
      '/api/projects/p1/transfer': { POST: { status: 200, body: {} } },
    });
    const onClose = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    await within(dialog).findByRole('list', { name: 'Members' });

    fireEvent.click(
      within(dialog).getByRole('button', { name: 'Transfer ownership to Eddie Editor' }),
    );
    let confirm = await screen.findByRole('dialog', { name: 'Transfer ownership' });
    expect(confirm.textContent).toContain('Eddie Editor');
    expect(confirm.textContent).toContain('You will become an editor');
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Transfer ownership' })).toBeNull(),
    );
    expect(onClose).not.toHaveBeenCalled();
    expect(sent(fetchMock, 'POST')).toEqual([]);

    fireEvent.click(
      within(dialog).getByRole('button', { name: 'Transfer ownership to Eddie Editor' }),
    );
    confirm = await screen.findByRole('dialog', { name: 'Transfer ownership' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Transfer ownership' }));
    expect(await within(dialog).findByText('Eddie Editor is now the owner.')).toBeTruthy();
    expect(sent(fetchMock, 'POST')).toEqual([
      { path: '/api/projects/p1/transfer', body: { user_id: 'u2' } },
    ]);

    // Escape on the members dialog itself closes it.
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('MembersDialog, removing someone who made share links', () => {
  /** The DELETE requests sent, with their query. */
  const deletes = (fetchMock: FetchMock) =>
    fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'DELETE')
      .map(([url]) => {
        const parsed = new URL(url, 'http://localhost');
        return `${parsed.pathname}${parsed.search}`;
      });

  const withLinks = () =>
    membersResponse({
      members: [
        { ...owner, links_made: 1 },
        { ...editor, links_made: 3 },
        { ...commenter, links_made: 0 },
      ],
    });

  it("asks first, says how many links they made and revokes them with 'Also revoke the links they made' (checked by default)", async () => {
    const fetchMock = stubMembers('/api/projects/p1/members', withLinks(), {
      '/api/projects/p1/members/u2': { DELETE: noContent },
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    await within(dialog).findByRole('list', { name: 'Members' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Eddie Editor' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(confirm.textContent).toContain('Remove Eddie Editor from Night Drive?');
    expect(within(confirm).getByText('They made 3 share links that still open.')).toBeTruthy();
    const revoke = within(confirm).getByRole('checkbox', {
      name: 'Also revoke the links they made',
    });
    expect((revoke as HTMLInputElement).checked).toBe(true);
    expect(await axeViolations()).toEqual([]);
    expect(deletes(fetchMock)).toEqual([]);

    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('Eddie Editor was removed.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove member' })).toBeNull());
    expect(deletes(fetchMock)).toEqual(['/api/projects/p1/members/u2?revoke_links=true']);
  });

  it('keeps their links when the box is unticked, and Cancel removes nobody', async () => {
    const fetchMock = stubMembers('/api/projects/p1/members', withLinks(), {
      '/api/projects/p1/members/u2': { DELETE: noContent },
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    await within(dialog).findByRole('list', { name: 'Members' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Eddie Editor' }));
    let confirm = await screen.findByRole('dialog', { name: 'Remove member' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove member' })).toBeNull());
    expect(deletes(fetchMock)).toEqual([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Eddie Editor' }));
    confirm = await screen.findByRole('dialog', { name: 'Remove member' });
    fireEvent.click(
      within(confirm).getByRole('checkbox', { name: 'Also revoke the links they made' }),
    );
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('Eddie Editor was removed.')).toBeTruthy();
    expect(deletes(fetchMock)).toEqual(['/api/projects/p1/members/u2?revoke_links=false']);
  });

  it('says "1 share link" for one, and shows a refusal inside the confirmation', async () => {
    stubMembers(
      '/api/projects/p1/members',
      membersResponse({ members: [owner, { ...editor, links_made: 1 }] }),
      {
        '/api/projects/p1/members/u2': {
          DELETE: { status: 403, body: { error: 'You need Owner access to do this.' } },
        },
      },
    );
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    await within(dialog).findByRole('list', { name: 'Members' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Eddie Editor' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(within(confirm).getByText('They made 1 share link that still opens.')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await within(confirm).findByText('You need Owner access to do this.')).toBeTruthy();
  });
});

describe('MembersDialog, as a member', () => {
  it('lists members read-only and offers Leave project, which lands on the dashboard', async () => {
    const fetchMock = stubMembers(
      '/api/projects/p1/members',
      membersResponse({
        role: 'commenter',
        members: [{ ...owner, user_id: 'u9' }, editor, { ...commenter, user_id: 'u1' }],
        invitations: [],
      }),
      { '/api/projects/p1/leave': { POST: noContent } },
    );
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    const list = await within(dialog).findByRole('list', { name: 'Members' });

    expect(within(list).queryAllByRole('combobox')).toEqual([]);
    expect(
      within(dialog).queryByRole('button', { name: /Remove|Transfer|Resend|Revoke/ }),
    ).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Invite' })).toBeNull();
    expect(within(dialog).queryByText(/Pending invitations/)).toBeNull();
    expect(within(list).getByText('Owner')).toBeTruthy();
    expect(within(list).getByText('Editor')).toBeTruthy();
    expect(within(list).getByText('Commenter')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave project' }));
    const confirm = await screen.findByRole('dialog', { name: 'Leave project' });
    expect(confirm.textContent).toContain('Night Drive');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Leave project' }));

    expect(await screen.findByText('Dashboard')).toBeTruthy();
    expect(sent(fetchMock, 'POST')).toEqual([{ path: '/api/projects/p1/leave', body: {} }]);
  });

  it('shows why leaving failed', async () => {
    stubMembers('/api/projects/p1/members', membersResponse({ role: 'viewer', invitations: [] }), {
      '/api/projects/p1/leave': {
        POST: { status: 409, body: { error: 'Transfer ownership before leaving.' } },
      },
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Project members' });
    await within(dialog).findByRole('list', { name: 'Members' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave project' }));
    const confirm = await screen.findByRole('dialog', { name: 'Leave project' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Leave project' }));
    expect(await within(confirm).findByText('Transfer ownership before leaving.')).toBeTruthy();
  });
});

describe('MembersDialog, for a repository', () => {
  it("is titled 'Repository members' and uses the repository's routes", async () => {
    const fetchMock = stubMembers(
      '/api/repos/r1/members',
      membersResponse({ role: 'editor', invitations: [] }),
      { '/api/repos/r1/leave': { POST: noContent } },
    );
    renderDialog(repository);
    const dialog = await screen.findByRole('dialog', { name: 'Repository members' });
    await within(dialog).findByRole('list', { name: 'Members' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave repository' }));
    const confirm = await screen.findByRole('dialog', { name: 'Leave repository' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Leave repository' }));
    expect(await screen.findByText('Dashboard')).toBeTruthy();
    expect(sent(fetchMock, 'POST')).toEqual([{ path: '/api/repos/r1/leave', body: {} }]);
  });

  it('invites into the repository as its owner', async () => {
    const fetchMock = stubMembers('/api/repos/r1/members', membersResponse({ invitations: [] }), {
      '/api/repos/r1/invitations': { POST: { status: 201, body: invitation } },
    });
    renderDialog(repository);
    const dialog = await screen.findByRole('dialog', { name: 'Repository members' });
    await within(dialog).findByRole('list', { name: 'Members' });
    expect(within(dialog).getByText('No pending invitations.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Email'), {
      target: { value: 'vi@example.com' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText('Invitation sent to vi@example.com.')).toBeTruthy();
    expect(sent(fetchMock, 'POST')).toEqual([
      { path: '/api/repos/r1/invitations', body: { email: 'vi@example.com', role: 'commenter' } },
    ]);
  });
});

describe('MembersDialog, for a collection', () => {
  const collectionTarget: MembersTarget = { kind: 'collection', id: 'c1' };

  function renderCollectionDialog() {
    renderAt(<MembersDialog target={collectionTarget} targetName="Road trip" onClose={vi.fn()} />, {
      pattern: '/here',
      url: '/here',
      routes: [
        { path: '/dashboard', element: <Landed name="Dashboard" /> },
        { path: '/collections', element: <Landed name="Collections" /> },
      ],
    });
  }

  it("is titled 'Collection members', manages members through the collection's routes and offers no transfer of ownership", async () => {
    const fetchMock = stubMembers('/api/collections/c1/members', membersResponse(), {
      '/api/collections/c1/invitations': {
        POST: { status: 201, body: { ...invitation, id: 'i2', email: 'new@example.com' } },
      },
      '/api/collections/c1/members/u3': {
        PATCH: { ...commenter, role: 'viewer' },
        DELETE: noContent,
      },
    });
    renderCollectionDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Collection members' });
    const list = await within(dialog).findByRole('list', { name: 'Members' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);

    // An editor's row has the role select and Remove, but nothing hands the collection over.
    expect(within(dialog).getByRole('combobox', { name: 'Role of Eddie Editor' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Remove Eddie Editor' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: /Transfer ownership/ })).toBeNull();
    expect(within(dialog).queryByText(/Transfer ownership/)).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Leave collection' })).toBeNull();
    expect(within(dialog).getByRole('list', { name: 'Pending invitations' })).toBeTruthy();
    expect(await axeViolations()).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Email'), {
      target: { value: 'new@example.com' },
    });
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'editor' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText('Invitation sent to new@example.com.')).toBeTruthy();

    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Role of cam@example.com' }), {
      target: { value: 'viewer' },
    });
    expect(await within(dialog).findByText('cam@example.com is now Viewer.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove cam@example.com' }));
    expect(await within(dialog).findByText('cam@example.com was removed.')).toBeTruthy();

    expect(sent(fetchMock, 'POST')).toEqual([
      {
        path: '/api/collections/c1/invitations',
        body: { email: 'new@example.com', role: 'editor' },
      },
    ]);
    expect(sent(fetchMock, 'PATCH')).toEqual([
      { path: '/api/collections/c1/members/u3', body: { role: 'viewer' } },
    ]);
    expect(sent(fetchMock, 'DELETE').map((call) => call.path)).toEqual([
      '/api/collections/c1/members/u3',
    ]);
    expect(sent(fetchMock, 'GET')[0]?.path).toBe('/api/collections/c1/members');
  });

  it("offers a member 'Leave collection', which says what leaving means and goes back to the collections", async () => {
    const fetchMock = stubMembers(
      '/api/collections/c1/members',
      membersResponse({
        role: 'editor',
        members: [
          { ...owner, user_id: 'u9' },
          { ...editor, user_id: 'u1' },
        ],
        invitations: [],
      }),
      { '/api/collections/c1/leave': { POST: noContent } },
    );
    renderCollectionDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Collection members' });
    await within(dialog).findByRole('list', { name: 'Members' });
    expect(within(dialog).queryAllByRole('combobox')).toEqual([]);
    expect(within(dialog).queryByRole('button', { name: 'Invite' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /Transfer ownership/ })).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave collection' }));
    const confirm = await screen.findByRole('dialog', { name: 'Leave collection' });
    expect(confirm.textContent).toContain(
      'Leave Road trip? You will no longer see it until someone invites you again.',
    );
    fireEvent.click(within(confirm).getByRole('button', { name: 'Leave collection' }));

    expect(await screen.findByText('Collections')).toBeTruthy();
    expect(screen.getByTestId('landed-at').textContent).toBe('/collections');
    expect(sent(fetchMock, 'POST')).toEqual([{ path: '/api/collections/c1/leave', body: {} }]);
  });
});
