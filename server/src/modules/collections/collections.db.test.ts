import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_MESSAGES, type Collection, type CollectionItem } from '@takes/contract';
import { api } from '../../../test/api';
import { addMember, buildProject, buildUser, buildVersion, depsOf } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

function expectError(response: LightMyRequestResponse, status: number, message: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<{ error: string }>().error).toBe(message);
}

/** A processed version as processing leaves it: completed, with a waveform of this length. */
function processed(duration: number) {
  return {
    status: 'completed' as const,
    waveform: JSON.stringify({ overview: [0.1, 0.5, 0.3], duration }),
  };
}

describe('collections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t.close());

  /**
   * Me with a project of my own (two processed versions), a band project I am a viewer of (one
   * processed version) and a stranger's project I may not read.
   */
  async function world() {
    const db = t.deps.database.db;
    const me = await buildUser(db, { name: 'Mia' });
    const bandOwner = await buildUser(db, { name: 'Bo' });
    const stranger = await buildUser(db, { name: 'Stan' });
    const mine = await buildProject(db, me.id, { name: 'Night Drive' });
    const band = await buildProject(db, bandOwner.id, { name: 'Band Demos' });
    const theirs = await buildProject(db, stranger.id, { name: 'Secret Album' });
    await addMember(db, { projectId: band.project.id }, me.id, 'viewer');
    const on = (p: typeof mine) => ({ projectId: p.project.id, branchId: p.branch.id });
    const deps = depsOf(t);
    const mine1 = await buildVersion(deps, on(mine), {
      overrides: { ...processed(10), message: 'First' },
    });
    const mine2 = await buildVersion(deps, on(mine), { overrides: processed(20) });
    const band1 = await buildVersion(deps, on(band), {
      overrides: { ...processed(30), message: 'Band take' },
    });
    const secret = await buildVersion(deps, on(theirs), { overrides: processed(40) });
    return {
      me,
      bandOwner,
      stranger,
      mine,
      band,
      theirs,
      versions: { mine1, mine2, band1, secret },
      as: api(t, me.cookie),
    };
  }

  async function newCollection(as: ReturnType<typeof api>, name = 'Mixes'): Promise<Collection> {
    const made = await as.post('/api/collections', { name });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<Collection>();
  }

  async function add(
    as: ReturnType<typeof api>,
    collectionId: string,
    body: { version_id: string } | { branch_id: string },
  ): Promise<CollectionItem> {
    const added = await as.post(`/api/collections/${collectionId}/items`, body);
    expect(added.statusCode, added.body).toBe(201);
    return added.json<CollectionItem>();
  }

  async function read(as: ReturnType<typeof api>, collectionId: string): Promise<Collection> {
    const got = await as.get(`/api/collections/${collectionId}`);
    expect(got.statusCode, got.body).toBe(200);
    return got.json<Collection>();
  }

  /** The stored positions of a collection's items, in order. */
  async function storedPositions(collectionId: string) {
    return t.deps.database.db
      .selectFrom('collection_items')
      .select(['id', 'position'])
      .where('collection_id', '=', collectionId)
      .orderBy('position')
      .execute();
  }

  it('creates, lists, renames and deletes collections, with validation messages', async () => {
    const { as } = await world();
    const made = await as.post('/api/collections', {
      name: '  Summer set  ',
      description: 'For the label',
    });
    expect(made.statusCode, made.body).toBe(201);
    const collection = made.json<Collection>();
    expect(collection).toMatchObject({
      name: 'Summer set',
      description: 'For the label',
      item_count: 0,
      total_duration: 0,
      items: [],
    });

    expectError(
      await as.post('/api/collections', { name: '   ' }),
      400,
      COLLECTION_MESSAGES.nameRequired,
    );
    expectError(await as.post('/api/collections', {}), 400, COLLECTION_MESSAGES.nameRequired);
    expectError(
      await as.post('/api/collections', { name: 'x'.repeat(101) }),
      400,
      COLLECTION_MESSAGES.nameTooLong,
    );
    expectError(
      await as.post('/api/collections', { name: 'Ok', description: 'x'.repeat(2001) }),
      400,
      COLLECTION_MESSAGES.descriptionTooLong,
    );
    expect((await as.post('/api/collections', { name: 'x'.repeat(100) })).statusCode).toBe(201);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const renamed = await as.patch(`/api/collections/${collection.id}`, {
      name: 'Autumn set',
      description: null,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Autumn set', description: null });
    expectError(
      await as.patch(`/api/collections/${collection.id}`, { name: '' }),
      400,
      COLLECTION_MESSAGES.nameRequired,
    );

    // Newest updated first: the renamed one went to the top.
    const listed = await as.get('/api/collections');
    expect(listed.statusCode, listed.body).toBe(200);
    const names = listed.json<{ collections: { name: string }[] }>().collections.map((c) => c.name);
    expect(names).toEqual(['Autumn set', 'x'.repeat(100)]);

    expect((await as.delete(`/api/collections/${collection.id}`)).statusCode).toBe(204);
    expectError(
      await as.get(`/api/collections/${collection.id}`),
      404,
      COLLECTION_MESSAGES.notFound,
    );
  });

  it("answers 404 'Collection not found' to anyone but the owner, on every route", async () => {
    const { as, stranger, versions } = await world();
    const collection = await newCollection(as);
    const item = await add(as, collection.id, { version_id: versions.mine1.id });
    const other = api(t, stranger.cookie);
    // The stranger may listen to their own version: only the collection is in the way.
    const base = `/api/collections/${collection.id}`;
    for (const response of [
      await other.get(base),
      await other.patch(base, { name: 'Mine now' }),
      await other.post(`${base}/items`, { version_id: versions.secret.id }),
      await other.delete(`${base}/items/${item.id}`),
      await other.put(`${base}/order`, { item_ids: [item.id] }),
      await other.delete(base),
    ])
      expectError(response, 404, COLLECTION_MESSAGES.notFound);
    expect(
      (await other.get('/api/collections')).json<{ collections: unknown[] }>().collections,
    ).toEqual([]);
    // Still there, unchanged.
    expect(await read(as, collection.id)).toMatchObject({ name: 'Mixes', item_count: 1 });
    // And an item id that is not in the collection.
    expectError(
      await as.delete(`${base}/items/${crypto.randomUUID()}`),
      404,
      COLLECTION_MESSAGES.itemNotFound,
    );
  });

  it('adds items from two projects, refuses duplicates and versions the caller cannot read', async () => {
    const { as, versions, band, theirs, mine } = await world();
    const collection = await newCollection(as);
    const first = await add(as, collection.id, { version_id: versions.mine1.id });
    expect(first).toEqual({
      id: first.id,
      position: 0,
      kind: 'version',
      unavailable: false,
      version_id: versions.mine1.id,
      version_number: 1,
      message: 'First',
      project_id: mine.project.id,
      project_name: 'Night Drive',
      branch_id: mine.branch.id,
      branch_name: 'main',
      duration: 10,
      status: 'completed',
      stream_url: `/api/versions/${versions.mine1.id}/stream`,
      link_unavailable_reason: null,
    });
    const second = await add(as, collection.id, { version_id: versions.band1.id });
    expect(second).toMatchObject({ position: 1, project_name: 'Band Demos', message: 'Band take' });
    const third = await add(as, collection.id, { branch_id: band.branch.id });
    expect(third).toMatchObject({ position: 2, kind: 'latest', version_id: versions.band1.id });

    const base = `/api/collections/${collection.id}/items`;
    expectError(
      await as.post(base, { version_id: versions.mine1.id }),
      409,
      COLLECTION_MESSAGES.duplicateVersion,
    );
    expectError(
      await as.post(base, { branch_id: band.branch.id }),
      409,
      COLLECTION_MESSAGES.duplicateBranch,
    );
    expectError(await as.post(base, { version_id: versions.secret.id }), 404, 'Version not found');
    expectError(await as.post(base, { branch_id: theirs.branch.id }), 404, 'Branch not found');
    expectError(await as.post(base, { version_id: crypto.randomUUID() }), 404, 'Version not found');
    expectError(
      await as.post(base, { version_id: versions.mine2.id, branch_id: mine.branch.id }),
      400,
      COLLECTION_MESSAGES.oneTarget,
    );
    expectError(await as.post(base, {}), 400, COLLECTION_MESSAGES.oneTarget);

    // Two adds of the same version at once: one is added, the other refused.
    const racing = await Promise.all([
      as.post(base, { version_id: versions.mine2.id }),
      as.post(base, { version_id: versions.mine2.id }),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409]);

    const got = await read(as, collection.id);
    expect(got.items.map((item) => item.position)).toEqual([0, 1, 2, 3]);
    expect(got).toMatchObject({ item_count: 4, total_duration: 10 + 30 + 30 + 20 });
    const listed = (await as.get('/api/collections')).json<{
      collections: { id: string; item_count: number; total_duration: number }[];
    }>();
    expect(listed.collections).toEqual([
      expect.objectContaining({ id: collection.id, item_count: 4, total_duration: 90 }),
    ]);
  });

  it('keeps the order whole under concurrent reorders, adds and removals', async () => {
    const { as, mine } = await world();
    const deps = depsOf(t);
    const collection = await newCollection(as);
    const on = { projectId: mine.project.id, branchId: mine.branch.id };
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const version = await buildVersion(deps, on, { overrides: processed(1) });
      ids.push((await add(as, collection.id, { version_id: version.id })).id);
    }
    const order = `/api/collections/${collection.id}/order`;

    // A plain reorder is applied and answered with the collection in its new order.
    const reversed = [...ids].reverse();
    const once = await as.put(order, { item_ids: reversed });
    expect(once.statusCode, once.body).toBe(200);
    expect(once.json<Collection>().items.map((item) => [item.id, item.position])).toEqual(
      reversed.map((id, index) => [id, index]),
    );

    // Refusals: a duplicate id (400), a list that is not the current items (409).
    expectError(
      await as.put(order, { item_ids: [ids[0], ids[0], ...ids.slice(2)] }),
      400,
      COLLECTION_MESSAGES.duplicateIds,
    );
    expectError(await as.put(order, { item_ids: ids.slice(1) }), 409, COLLECTION_MESSAGES.stale);
    expectError(
      await as.put(order, { item_ids: [...ids.slice(1), crypto.randomUUID()] }),
      409,
      COLLECTION_MESSAGES.stale,
    );

    // 12 reorders at once, each a different permutation.
    const permutations = Array.from({ length: 12 }, (_, k) =>
      ids.map((_, i) => ids[(i * 5 + k) % ids.length]!),
    );
    const answers = await Promise.all(
      permutations.map((itemIds) => as.put(order, { item_ids: itemIds })),
    );
    for (const answer of answers) expect([200, 409], answer.body).toContain(answer.statusCode);
    let stored = await storedPositions(collection.id);
    expect(stored.map((row) => row.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(stored.map((row) => row.id))).toEqual(new Set(ids));
    // The order is one of the permutations asked for.
    expect(permutations).toContainEqual(stored.map((row) => row.id));

    // Adds, removals and reorders at once (the reorders name the items before the adds).
    const extra = [];
    for (let i = 0; i < 3; i++)
      extra.push(await buildVersion(deps, on, { overrides: processed(1) }));
    const mixed = await Promise.all([
      ...permutations.slice(0, 4).map((itemIds) => as.put(order, { item_ids: itemIds })),
      ...extra.map((version) =>
        as.post(`/api/collections/${collection.id}/items`, { version_id: version.id }),
      ),
      as.delete(`/api/collections/${collection.id}/items/${ids[0]}`),
    ]);
    for (const answer of mixed.slice(0, 4))
      expect([200, 409], answer.body).toContain(answer.statusCode);
    for (const answer of mixed.slice(4, 7)) expect(answer.statusCode, answer.body).toBe(201);
    expect(mixed[7]!.statusCode).toBe(204);
    stored = await storedPositions(collection.id);
    expect(new Set(stored.map((row) => row.position)).size).toBe(stored.length);
    expect(stored).toHaveLength(8);
    const got = await read(as, collection.id);
    expect(got.items.map((item) => item.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(got.items.map((item) => item.id))).toEqual(new Set(stored.map((row) => row.id)));
    expect(got.items.map((item) => item.id)).toEqual(stored.map((row) => row.id));

    // A reorder after all that puts the stored positions back to 0..n-1.
    const now = got.items.map((item) => item.id).reverse();
    expect((await as.put(order, { item_ids: now })).statusCode).toBe(200);
    expect((await storedPositions(collection.id)).map((row) => row.position)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7,
    ]);
  });

  it('follows a branch to its newest processed version', async () => {
    const { as, me, band, versions } = await world();
    const deps = depsOf(t);
    const collection = await newCollection(as);
    const followed = await add(as, collection.id, { branch_id: band.branch.id });
    expect(followed).toMatchObject({ kind: 'latest', version_id: versions.band1.id });
    const on = { projectId: band.project.id, branchId: band.branch.id };

    // A new upload, processed: shown without adding anything again.
    const v2 = await buildVersion(deps, on, {
      overrides: { ...processed(42), message: 'Louder' },
    });
    let item = (await read(as, collection.id)).items[0];
    expect(item).toMatchObject({
      id: followed.id,
      kind: 'latest',
      version_id: v2.id,
      version_number: 2,
      message: 'Louder',
      duration: 42,
      branch_name: 'main',
      stream_url: `/api/versions/${v2.id}/stream`,
    });

    // A newer one still processing (or failed) is not shown: the processed one before it is.
    await buildVersion(deps, on);
    await buildVersion(deps, on, { overrides: { status: 'failed', error: 'Unreadable' } });
    item = (await read(as, collection.id)).items[0];
    expect(item).toMatchObject({ version_id: v2.id, version_number: 2 });

    // A branch with no processed version yet (a new project of mine): listed, unavailable.
    const db = t.deps.database.db;
    const fresh = await buildProject(db, me.id, { name: 'Unreleased' });
    await buildVersion(deps, { projectId: fresh.project.id, branchId: fresh.branch.id });
    const waiting = await add(as, collection.id, { branch_id: fresh.branch.id });
    expect(waiting).toEqual({
      id: waiting.id,
      position: 1,
      kind: 'latest',
      unavailable: true,
      reason: 'not_processed',
      link_unavailable_reason: null,
    });
    const got = await read(as, collection.id);
    expect(got).toMatchObject({ item_count: 2, total_duration: 42 });
  });

  it("hides a project's items from a removed member and drops deleted versions' items", async () => {
    const { as, me, bandOwner, band, mine, versions } = await world();
    const collection = await newCollection(as);
    const a = await add(as, collection.id, { version_id: versions.mine1.id });
    const b = await add(as, collection.id, { version_id: versions.band1.id });
    const c = await add(as, collection.id, { branch_id: band.branch.id });
    const d = await add(as, collection.id, { version_id: versions.mine2.id });

    // The band's owner removes me from the project.
    const removed = await api(t, bandOwner.cookie).delete(
      `/api/projects/${band.project.id}/members/${me.id}`,
    );
    expect(removed.statusCode, removed.body).toBe(204);
    const got = await as.get(`/api/collections/${collection.id}`);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json<Collection>().items).toEqual([
      expect.objectContaining({ id: a.id, position: 0, unavailable: false }),
      {
        id: b.id,
        position: 1,
        kind: 'version',
        unavailable: true,
        reason: 'no_access',
        link_unavailable_reason: null,
      },
      {
        id: c.id,
        position: 2,
        kind: 'latest',
        unavailable: true,
        reason: 'no_access',
        link_unavailable_reason: null,
      },
      expect.objectContaining({ id: d.id, position: 3, unavailable: false }),
    ]);
    // Nothing of the band project anywhere in the answer.
    for (const secret of [
      band.project.id,
      band.branch.id,
      versions.band1.id,
      'Band Demos',
      'Band take',
    ])
      expect(got.body).not.toContain(secret);
    expect(got.json<Collection>().total_duration).toBe(10 + 20);
    const listed = await as.get('/api/collections');
    expect(
      listed.json<{ collections: { total_duration: number }[] }>().collections[0],
    ).toMatchObject({
      item_count: 4,
      total_duration: 30,
    });

    // My own version deleted (by the app's route): its item goes, the rest close the gap.
    expect((await as.delete(`/api/versions/${versions.mine1.id}`)).statusCode).toBe(204);
    let after = await read(as, collection.id);
    expect(after.items.map((item) => [item.id, item.position])).toEqual([
      [b.id, 0],
      [c.id, 1],
      [d.id, 2],
    ]);
    // A whole project deleted: its branch's and versions' items go too.
    await t.deps.database.db.deleteFrom('projects').where('id', '=', band.project.id).execute();
    after = await read(as, collection.id);
    expect(after.items.map((item) => [item.id, item.position])).toEqual([[d.id, 0]]);
    expect(after).toMatchObject({ item_count: 1, total_duration: 20 });
    // Removing an item through the API closes the gap the same way.
    const e = await add(as, collection.id, {
      version_id: (
        await buildVersion(
          depsOf(t),
          { projectId: mine.project.id, branchId: mine.branch.id },
          { overrides: processed(5) },
        )
      ).id,
    });
    expect(e.position).toBe(1);
    expect((await as.delete(`/api/collections/${collection.id}/items/${d.id}`)).statusCode).toBe(
      204,
    );
    expect((await read(as, collection.id)).items.map((item) => [item.id, item.position])).toEqual([
      [e.id, 0],
    ]);
  });
});
