import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVITE_LINK_MESSAGES,
  MAX_LIVE_INVITE_LINKS,
  type ActivityPage,
  type InviteLink,
} from '@takes/contract';
import { api } from '../../../test/api';
import { addMember, buildProject, buildUser, type BuiltUser } from '../../../test/factories';
import { testDialect } from '../../../test/test-database';
import { createTestApp, TestClock, type TestApp } from '../../../test/test-app';

/**
 * Invite links (issue 47): the owner makes one with a role, uses and an expiry; whoever opens it
 * signed in with a proven address joins at its role, one use each, until it runs out, expires or
 * is revoked. Uses are taken atomically: concurrent joins never pass the limit.
 */
describe('invite links', () => {
  let t: TestApp;
  const clock = new TestClock();
  const db = () => t.deps.database.db;

  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t?.close());

  async function setUp(name = 'Night Drive') {
    const owner = await buildUser(db(), { name: 'Olga' });
    const { project } = await buildProject(db(), owner.id, { name });
    return { owner, project };
  }

  async function makeLink(
    owner: BuiltUser,
    projectId: string,
    body: object = {},
  ): Promise<InviteLink & { key: string }> {
    const made = await api(t, owner.cookie).post(`/api/projects/${projectId}/invite-links`, body);
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json<InviteLink>();
    return { ...link, key: link.url.split('/join/')[1] ?? '' };
  }

  const join = (who: BuiltUser, key: string) =>
    api(t, who.cookie).post('/api/invite-links/join', { key });
  const roleOf = (userId: string, projectId: string) =>
    t.services.access.projectRole(userId, projectId);

  it('is made by the owner with a role, uses and an expiry, and listed with its uses left', async () => {
    const { owner, project } = await setUp();
    const link = await makeLink(owner, project.id, {
      name: 'Band chat',
      role: 'editor',
      max_uses: 3,
      expires_in_days: 2,
    });
    expect(link).toMatchObject({ name: 'Band chat', role: 'editor', max_uses: 3, uses: 0 });
    expect(link.uses_left).toBe(3);
    expect(link.url).toMatch(/\/join\/[A-Za-z0-9]{22}$/);
    expect(Date.parse(link.expires_at) - Date.parse(link.created_at)).toBe(2 * 86_400_000);

    const defaults = await makeLink(owner, project.id);
    expect(defaults).toMatchObject({ name: 'Invite link', role: 'viewer', max_uses: 10 });

    const listed = await api(t, owner.cookie).get(`/api/projects/${project.id}/invite-links`);
    expect(listed.json<{ links: InviteLink[] }>().links.map((l) => l.id)).toEqual([
      defaults.id,
      link.id,
    ]);
  });

  it('refuses bad input with a clear message', async () => {
    const { owner, project } = await setUp();
    const url = `/api/projects/${project.id}/invite-links`;
    const cases: [object, string][] = [
      [{ max_uses: 0 }, INVITE_LINK_MESSAGES.usesInvalid],
      [{ max_uses: 51 }, INVITE_LINK_MESSAGES.usesInvalid],
      [{ max_uses: 2.5 }, INVITE_LINK_MESSAGES.usesInvalid],
      [{ expires_in_days: 31 }, INVITE_LINK_MESSAGES.daysInvalid],
      [{ expires_in_days: 0 }, INVITE_LINK_MESSAGES.daysInvalid],
      [{ role: 'owner' }, INVITE_LINK_MESSAGES.roleInvalid],
      [{ name: 'x'.repeat(81) }, INVITE_LINK_MESSAGES.nameTooLong],
    ];
    for (const [body, message] of cases) {
      const response = await api(t, owner.cookie).post(url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ error: string }>().error).toContain(message);
    }
  });

  it('is the owner’s alone: an editor gets 403, a stranger 404', async () => {
    const { owner, project } = await setUp();
    const editor = await buildUser(db());
    await addMember(db(), { projectId: project.id }, editor.id, 'editor');
    const stranger = await buildUser(db());
    const url = `/api/projects/${project.id}/invite-links`;
    expect((await api(t, editor.cookie).post(url, {})).statusCode).toBe(403);
    expect((await api(t, editor.cookie).get(url)).statusCode).toBe(403);
    expect((await api(t, stranger.cookie).post(url, {})).statusCode).toBe(404);
    const link = await makeLink(owner, project.id);
    expect((await api(t, editor.cookie).delete(`/api/invite-links/${link.id}`)).statusCode).toBe(
      403,
    );
    expect((await api(t, stranger.cookie).delete(`/api/invite-links/${link.id}`)).statusCode).toBe(
      404,
    );
  });

  it('joins at its role, says so in Activity with the link’s name, and takes one use', async () => {
    const { owner, project } = await setUp();
    const link = await makeLink(owner, project.id, { name: 'Band chat', role: 'commenter' });
    const maya = await buildUser(db(), { name: 'Maya' });

    const view = await api(t, maya.cookie).post('/api/invite-links/view', { key: link.key });
    expect(view.json()).toEqual({
      project_id: project.id,
      project_name: 'Night Drive',
      inviter_name: 'Olga',
      role: 'commenter',
      expires_at: link.expires_at,
    });
    const joined = await join(maya, link.key);
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json()).toEqual({ project_id: project.id, role: 'commenter', joined: true });
    expect(await roleOf(maya.id, project.id)).toBe('commenter');

    const activity = await api(t, owner.cookie).get(`/api/projects/${project.id}/activity`);
    expect(activity.json<ActivityPage>().items[0]?.summary).toBe(
      "Maya joined as Commenter through the invite link 'Band chat'",
    );
    // A member already in keeps their role and takes no use; so does the owner.
    expect((await join(maya, link.key)).json()).toMatchObject({ role: 'commenter', joined: false });
    expect((await join(owner, link.key)).json()).toMatchObject({ role: 'owner', joined: false });
    const listed = await api(t, owner.cookie).get(`/api/projects/${project.id}/invite-links`);
    expect(listed.json<{ links: InviteLink[] }>().links[0]).toMatchObject({ uses: 1 });
  });

  it('with 2 uses lets two people in and refuses a third', async () => {
    const { owner, project } = await setUp();
    const link = await makeLink(owner, project.id, { max_uses: 2 });
    const [a, b, c] = await Promise.all([buildUser(db()), buildUser(db()), buildUser(db())]);
    expect((await join(a, link.key)).statusCode).toBe(200);
    expect((await join(b, link.key)).statusCode).toBe(200);
    const third = await join(c, link.key);
    expect(third.statusCode).toBe(410);
    expect(third.json()).toMatchObject({ error: INVITE_LINK_MESSAGES.invalid, code: 'gone' });
    expect(await roleOf(c.id, project.id)).toBeNull();
    // Used up, it is no longer live.
    const listed = await api(t, owner.cookie).get(`/api/projects/${project.id}/invite-links`);
    expect(listed.json<{ links: InviteLink[] }>().links).toEqual([]);
  });

  it('under concurrent joins on a 2-use link makes exactly 2 members', async () => {
    const { owner, project } = await setUp();
    const link = await makeLink(owner, project.id, { max_uses: 2 });
    const people = await Promise.all(Array.from({ length: 8 }, () => buildUser(db())));
    const answers = await Promise.all(people.map((p) => join(p, link.key)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 410, 410, 410, 410, 410, 410]);
    const members = await db()
      .selectFrom('project_members')
      .select('user_id')
      .where('project_id', '=', project.id)
      .execute();
    expect(members).toHaveLength(2);
    const row = await db()
      .selectFrom('invite_links')
      .select('uses')
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.uses)).toBe(2);
  });

  it('the same person joining twice at once takes one use', async () => {
    const { owner, project } = await setUp();
    const link = await makeLink(owner, project.id, { max_uses: 5 });
    const maya = await buildUser(db());
    const answers = await Promise.all([join(maya, link.key), join(maya, link.key)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const row = await db()
      .selectFrom('invite_links')
      .select('uses')
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.uses)).toBe(1);
  });

  it('stops working once expired or revoked', async () => {
    const { owner, project } = await setUp();
    const soon = await makeLink(owner, project.id, { expires_in_days: 1 });
    const revoked = await makeLink(owner, project.id, { expires_in_days: 30 });
    const maya = await buildUser(db());

    const gone = await api(t, owner.cookie).delete(`/api/invite-links/${revoked.id}`);
    expect(gone.statusCode).toBe(204);
    expect((await api(t, owner.cookie).delete(`/api/invite-links/${revoked.id}`)).statusCode).toBe(
      404,
    );
    expect((await join(maya, revoked.key)).statusCode).toBe(410);
    const viewRevoked = await api(t, maya.cookie).post('/api/invite-links/view', {
      key: revoked.key,
    });
    expect(viewRevoked.statusCode).toBe(410);

    clock.advance(86_400_000 + 1000);
    try {
      expect((await join(maya, soon.key)).statusCode).toBe(410);
      const listed = await api(t, owner.cookie).get(`/api/projects/${project.id}/invite-links`);
      expect(listed.json<{ links: InviteLink[] }>().links).toEqual([]);
    } finally {
      clock.advance(-(86_400_000 + 1000));
    }
    expect(await roleOf(maya.id, project.id)).toBeNull();
  });

  it('needs a proven address to join, as invitations do', async () => {
    const { owner, project } = await setUp();
    const link = await makeLink(owner, project.id);
    const unproven = await buildUser(db(), {
      email_verified: testDialect() === 'postgres' ? false : 0,
    });
    const refused = await join(unproven, link.key);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      error: INVITE_LINK_MESSAGES.confirmEmailToJoin(unproven.email),
      code: 'email_unverified',
    });
    expect(await roleOf(unproven.id, project.id)).toBeNull();
    const listed = await api(t, owner.cookie).get(`/api/projects/${project.id}/invite-links`);
    expect(listed.json<{ links: InviteLink[] }>().links[0]?.uses).toBe(0);
  });

  it('answers an unknown key 410, and a signed-out join 401', async () => {
    const maya = await buildUser(db());
    const unknown = await join(maya, 'A'.repeat(22));
    expect(unknown.statusCode).toBe(410);
    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/api/invite-links/join',
      payload: { key: 'A'.repeat(22) },
      headers: { origin: 'http://localhost:8080' },
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it(`keeps at most ${MAX_LIVE_INVITE_LINKS} live links per project`, async () => {
    const { owner, project } = await setUp();
    const url = `/api/projects/${project.id}/invite-links`;
    await Promise.all(
      Array.from({ length: MAX_LIVE_INVITE_LINKS + 3 }, () => api(t, owner.cookie).post(url, {})),
    );
    const listed = await api(t, owner.cookie).get(url);
    expect(listed.json<{ links: InviteLink[] }>().links).toHaveLength(MAX_LIVE_INVITE_LINKS);
    const over = await api(t, owner.cookie).post(url, {});
    expect(over.statusCode).toBe(429);
    expect(over.json<{ error: string }>().error).toBe(INVITE_LINK_MESSAGES.tooManyLive);
  });
});
