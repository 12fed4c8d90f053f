import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COLLECTION_MESSAGES,
  endpoints,
  MEMBER_MESSAGES,
  type Collection,
  type CollectionSummary,
} from '@takes/contract';
import { api, client } from '../../../test/api';
import { expectError, PNG, sendCollectionCover } from '../../../test/collection-world';
import {
  addMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
  type BuiltUser,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import type { MailMessage, Mailer } from '../../mail/mailer';

const members = endpoints.members;

/** Keeps every email the app sends, for the test to read. */
class CapturingMailer implements Mailer {
  readonly kind = 'log' as const;
  readonly sent: MailMessage[] = [];
  send(message: MailMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }
  close(): void {}
}

const processed = (duration: number) => ({
  status: 'completed' as const,
  waveform: JSON.stringify({ overview: [0.1, 0.5, 0.3], duration }),
});

const NEED_OWNER = MEMBER_MESSAGES.needRole('owner');
const NEED_EDITOR = MEMBER_MESSAGES.needRole('editor');

describe('collection members', () => {
  let t: TestApp;
  let mailer: CapturingMailer;
  beforeAll(async () => {
    mailer = new CapturingMailer();
    t = await createTestApp({ mailer });
  }, 60_000);
  afterAll(() => t.close());

  /**
   * Olga owns a collection of two takes: one of her project Open (which Gus may read as a
   * viewer) and one of her project Closed (which Gus may not read); and a third project Gus
   * owns. Stan is nobody to any of it.
   */
  async function world() {
    const db = t.deps.database.db;
    const olga = await buildUser(db, { name: 'Olga' });
    const gus = await buildUser(db, { name: 'Gus' });
    const stan = await buildUser(db, { name: 'Stan' });
    const open = await buildProject(db, olga.id, { name: 'Open Demos' });
    const closed = await buildProject(db, olga.id, { name: 'Closed Album' });
    const gusOwn = await buildProject(db, gus.id, { name: 'Gus Sketches' });
    await addMember(db, { projectId: open.project.id }, gus.id, 'viewer');
    const deps = depsOf(t);
    const on = (p: typeof open) => ({ projectId: p.project.id, branchId: p.branch.id });
    const openTake = await buildVersion(deps, on(open), {
      overrides: { ...processed(10), message: 'Open take' },
    });
    const closedTake = await buildVersion(deps, on(closed), {
      overrides: { ...processed(20), message: 'Closed take' },
    });
    const gusTake = await buildVersion(deps, on(gusOwn), { overrides: processed(30) });
    const owner = api(t, olga.cookie);
    const collection = (await owner.post('/api/collections', { name: 'For the label' })).json<{
      id: string;
    }>();
    const itemIds: string[] = [];
    for (const version of [openTake, closedTake]) {
      const added = await owner.post(`/api/collections/${collection.id}/items`, {
        version_id: version.id,
      });
      expect(added.statusCode, added.body).toBe(201);
      itemIds.push(added.json<{ id: string }>().id);
    }
    return {
      olga,
      gus,
      stan,
      owner,
      collectionId: collection.id,
      url: `/api/collections/${collection.id}`,
      itemIds,
      openTake,
      closedTake,
      gusTake,
      closedName: closed.project.name,
    };
  }

  /** Invites `who` by email as `role` and accepts the emailed link as them. */
  async function join(
    w: Awaited<ReturnType<typeof world>>,
    who: BuiltUser,
    role: 'viewer' | 'commenter' | 'editor',
  ) {
    const invitation = await client(t, w.olga.cookie).call(members.inviteToCollection, {
      params: { id: w.collectionId },
      body: { email: who.email, role },
    });
    const mail = mailer.sent.filter((m) => m.to === who.email.toLowerCase()).at(-1);
    const token = /\/invite\/([\w-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    return { invitation, mail, token };
  }

  it('invites by email into a collection; the link accepts into it with the role', async () => {
    const w = await world();
    const { mail, token } = await join(w, w.gus, 'editor');
    expect(mail?.text).toContain('Olga invited you to the collection "For the label" on Takes');
    expect(mail?.text).toContain('add, remove and reorder its items');
    const view = await client(t).call(members.viewInvitation, { body: { token } });
    expect(view).toMatchObject({
      kind: 'collection',
      target_id: w.collectionId,
      target_name: 'For the label',
      role: 'editor',
    });

    // Before accepting: nothing of it.
    expectError(await api(t, w.gus.cookie).get(w.url), 404, COLLECTION_MESSAGES.notFound);
    expect(
      await client(t, w.gus.cookie).call(members.acceptInvitation, { body: { token } }),
    ).toEqual({ kind: 'collection', target_id: w.collectionId, role: 'editor' });

    const list = (await api(t, w.gus.cookie).get('/api/collections')).json<{
      collections: CollectionSummary[];
    }>();
    expect(list.collections.map((c) => [c.id, c.role])).toContainEqual([w.collectionId, 'editor']);
    const seen = await client(t, w.gus.cookie).call(members.listCollectionMembers, {
      params: { id: w.collectionId },
    });
    expect(seen.role).toBe('editor');
    expect(seen.members.map((m) => [m.user_id, m.role])).toEqual([
      [w.olga.id, 'owner'],
      [w.gus.id, 'editor'],
    ]);
    // Pending invitations are the owner's to see.
    expect(seen.invitations).toEqual([]);
    // A collection keeps no activity feed: membership leaves no activity rows.
    const activity = await t.deps.database.db
      .selectFrom('activity')
      .select('kind')
      .where('actor_id', 'in', [w.olga.id, w.gus.id])
      .where('kind', 'like', 'member.%')
      .execute();
    expect(activity).toEqual([]);
  });

  it('shows a member only the items of projects they may read themselves', async () => {
    const w = await world();
    await addMember(t.deps.database.db, { collectionId: w.collectionId }, w.gus.id, 'viewer');
    const got = await api(t, w.gus.cookie).get(w.url);
    expect(got.statusCode, got.body).toBe(200);
    const collection = got.json<Collection>();
    expect(collection.role).toBe('viewer');
    expect(collection.items[0]).toMatchObject({
      unavailable: false,
      version_id: w.openTake.id,
      project_name: 'Open Demos',
    });
    expect(collection.items[1]).toEqual({
      id: w.itemIds[1],
      position: 1,
      kind: 'version',
      unavailable: true,
      reason: 'no_access',
      link_unavailable_reason: null,
    });
    expect(got.body).not.toContain(w.closedTake.id);
    expect(got.body).not.toContain(w.closedName);
    expect(collection.total_duration).toBe(10);
    // The owner still sees both.
    const owned = (await w.owner.get(w.url)).json<Collection>();
    expect(owned.role).toBe('owner');
    expect(owned.items.every((item) => !item.unavailable)).toBe(true);
    // And the stream of the closed take stays closed to the member.
    expectError(
      await api(t, w.gus.cookie).get(`/api/versions/${w.closedTake.id}/stream`),
      404,
      'Version not found',
    );
  });

  it('gives each role what a project gives it', async () => {
    const w = await world();
    const db = t.deps.database.db;
    await addMember(db, { collectionId: w.collectionId }, w.gus.id, 'viewer');
    const gus = api(t, w.gus.cookie);
    const setRole = (role: 'viewer' | 'commenter' | 'editor') =>
      client(t, w.olga.cookie).call(members.changeCollectionMemberRole, {
        params: { id: w.collectionId, userId: w.gus.id },
        body: { role },
      });

    // Viewer (and Commenter): see and play, change nothing.
    for (const role of ['viewer', 'commenter'] as const) {
      await setRole(role);
      expect((await gus.get(w.url)).statusCode).toBe(200);
      expectError(await gus.post(`${w.url}/items`, { version_id: w.gusTake.id }), 403, NEED_EDITOR);
      expectError(
        await gus.put(`${w.url}/order`, { item_ids: [...w.itemIds].reverse() }),
        403,
        NEED_EDITOR,
      );
      expectError(await gus.delete(`${w.url}/items/${w.itemIds[0]}`), 403, NEED_EDITOR);
      expectError(await gus.delete(`${w.url}/cover`), 403, NEED_EDITOR);
    }

    // Editor: items and cover, from projects the editor may listen to.
    await setRole('editor');
    const added = await gus.post(`${w.url}/items`, { version_id: w.gusTake.id });
    expect(added.statusCode, added.body).toBe(201);
    const addedId = added.json<{ id: string }>().id;
    const order = [addedId, ...w.itemIds];
    const reordered = await gus.put(`${w.url}/order`, { item_ids: order });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(reordered.json<Collection>().items.map((item) => item.id)).toEqual(order);
    const cover = await sendCollectionCover(t, w.gus.cookie, w.collectionId, PNG);
    expect(cover.statusCode, cover.body).toBe(200);
    // Not a take the editor cannot listen to, even one the owner could.
    const other = await buildProject(db, w.olga.id, { name: 'Elsewhere' });
    const elsewhere = await buildVersion(
      depsOf(t),
      { projectId: other.project.id, branchId: other.branch.id },
      { overrides: processed(5) },
    );
    expectError(
      await gus.post(`${w.url}/items`, { version_id: elsewhere.id }),
      404,
      'Version not found',
    );
    expect((await gus.delete(`${w.url}/items/${addedId}`)).statusCode).toBe(204);

    // The owner's alone: name, links, members, delete.
    expectError(await gus.patch(w.url, { name: 'Mine now' }), 403, NEED_OWNER);
    expectError(await gus.post(`${w.url}/links`, { name: 'Leak' }), 403, NEED_OWNER);
    expectError(await gus.get(`${w.url}/links`), 403, NEED_OWNER);
    expectError(
      await gus.post(`${w.url}/invitations`, { email: 'friend@example.com' }),
      403,
      NEED_OWNER,
    );
    expectError(await gus.delete(w.url), 403, NEED_OWNER);
    expect((await w.owner.get(w.url)).json<Collection>().name).toBe('For the label');
  });

  it('answers 404 to anyone else on every collection route, as for a missing one', async () => {
    const w = await world();
    const stan = api(t, w.stan.cookie);
    const calls = [
      stan.get(w.url),
      stan.get(`${w.url}/cover`),
      stan.get(`${w.url}/members`),
      stan.get(`${w.url}/links`),
      stan.patch(w.url, { name: 'x' }),
      stan.delete(w.url),
      stan.post(`${w.url}/items`, { version_id: w.openTake.id }),
      stan.put(`${w.url}/order`, { item_ids: w.itemIds }),
      stan.delete(`${w.url}/items/${w.itemIds[0]}`),
      stan.delete(`${w.url}/cover`),
      stan.post(`${w.url}/links`, { name: 'x' }),
      stan.post(`${w.url}/invitations`, { email: 'x@example.com' }),
      stan.post(`${w.url}/leave`),
      stan.patch(`${w.url}/members/${w.olga.id}`, { role: 'viewer' }),
      stan.delete(`${w.url}/members/${w.olga.id}`),
    ];
    for (const response of await Promise.all(calls))
      expectError(response, 404, COLLECTION_MESSAGES.notFound);
    const list = (await stan.get('/api/collections')).json<{ collections: CollectionSummary[] }>();
    expect(list.collections.map((c) => c.id)).not.toContain(w.collectionId);
  });

  it('refuses a removed member on their next request and revokes their pending invitations', async () => {
    const w = await world();
    const { token } = await join(w, w.gus, 'viewer');
    await client(t, w.gus.cookie).call(members.acceptInvitation, { body: { token } });
    expect((await api(t, w.gus.cookie).get(w.url)).statusCode).toBe(200);
    // A second invitation pending for the same address (a new role offered) …
    await t.deps.database.db
      .deleteFrom('collection_members')
      .where('user_id', '=', w.gus.id)
      .execute();
    const again = await join(w, w.gus, 'editor');
    await addMember(t.deps.database.db, { collectionId: w.collectionId }, w.gus.id, 'viewer');
    // … is revoked with the removal.
    const removed = await w.owner.delete(`${w.url}/members/${w.gus.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expectError(await api(t, w.gus.cookie).get(w.url), 404, COLLECTION_MESSAGES.notFound);
    const pending = await t.deps.database.db
      .selectFrom('invitations')
      .select('revoked_at')
      .where('id', '=', again.invitation.id)
      .executeTakeFirstOrThrow();
    expect(pending.revoked_at).not.toBeNull();
    // The owner cannot be removed or leave.
    expectError(
      await w.owner.delete(`${w.url}/members/${w.olga.id}`),
      409,
      MEMBER_MESSAGES.ownerCannotBeRemoved,
    );
    expectError(await w.owner.post(`${w.url}/leave`), 409, MEMBER_MESSAGES.ownerCannotLeave);
  });

  it('lets a member leave, and deleting the collection takes its members and invitations', async () => {
    const w = await world();
    await addMember(t.deps.database.db, { collectionId: w.collectionId }, w.gus.id, 'editor');
    const left = await api(t, w.gus.cookie).post(`${w.url}/leave`);
    expect(left.statusCode, left.body).toBe(204);
    expectError(await api(t, w.gus.cookie).get(w.url), 404, COLLECTION_MESSAGES.notFound);

    await addMember(t.deps.database.db, { collectionId: w.collectionId }, w.gus.id, 'viewer');
    const { token } = await join(w, w.stan, 'viewer');
    expect((await w.owner.delete(w.url)).statusCode).toBe(204);
    const db = t.deps.database.db;
    expect(
      await db
        .selectFrom('collection_members')
        .selectAll()
        .where('collection_id', '=', w.collectionId)
        .execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('invitations')
        .selectAll()
        .where('collection_id', '=', w.collectionId)
        .execute(),
    ).toEqual([]);
    // Its link no longer opens anything.
    await expect(client(t).call(members.viewInvitation, { body: { token } })).rejects.toMatchObject(
      { status: 410 },
    );
  });
});
