import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from '../../../test/audio-fixtures';
import {
  buildCollection,
  buildCollectionItem,
  buildCollectionLink,
  buildProject,
  buildRepo,
  buildUser,
  buildVersion,
  publishBounce,
} from '../../../test/factories';
import { migrationSuite } from '../../../test/migration-test';
import { LocalObjectStore } from '../../storage/local';
import { UrlSigner } from '../../storage/url-signer';
import { migratorOf } from '../migrate';

describe('migration 0031-collection-bounces', () => {
  const { fresh } = migrationSuite('0031-collection-bounces');
  let dir: string;
  let wav: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-0031-'));
    wav = await makeAudio(dir, 'wav', 1);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A collection with a version item (with a link's receipt and comment on it) and a bounce item. */
  async function world() {
    const { db } = await fresh();
    const storage = new LocalObjectStore(
      path.join(dir, randomUUID()),
      new UrlSigner('migration-secret-migration-secret-0031'),
    );
    const owner = await buildUser(db);
    const { project, branch } = await buildProject(db, owner.id);
    const version = await buildVersion(
      { db, storage },
      { projectId: project.id, branchId: branch.id },
    );
    const repo = await buildRepo(db, owner.id);
    const bounce = await publishBounce({ db, storage }, repo.id, wav);
    const collection = await buildCollection(db, owner.id);
    const item = await buildCollectionItem(db, collection, { version_id: version.id });
    const bounceItem = await buildCollectionItem(db, collection, { bounce_id: bounce.id }, 1);
    const link = await buildCollectionLink(db, collection.id);
    const now = new Date().toISOString();
    await db
      .insertInto('collection_link_receipts')
      .values({
        link_id: link.id,
        item_id: item.id,
        plays_started: 3,
        plays_30s: 2,
        plays_90: 1,
        downloads: 0,
        last_activity_at: now,
      })
      .execute();
    const commentId = randomUUID();
    await db
      .insertInto('comments')
      .values({
        id: commentId,
        version_id: version.id,
        user_id: null,
        visitor_name: 'Ana',
        link_id: null,
        parent_id: null,
        content: 'Nice',
        timestamp_seconds: null,
        end_timestamp_seconds: null,
        resolved_at: null,
        created_at: now,
        team_only: 0,
      })
      .execute();
    await db
      .insertInto('collection_link_comments')
      .values({ comment_id: commentId, link_id: link.id, item_id: item.id })
      .execute();
    return { db, version, bounce, collection, item, bounceItem, link, commentId };
  }

  it('holds one target per item, one item per bounce, and goes with its bounce', async () => {
    const w = await world();
    await expect(
      w.db
        .insertInto('collection_items')
        .values({
          id: randomUUID(),
          collection_id: w.collection.id,
          position: 5,
          version_id: w.version.id,
          branch_id: null,
          bounce_id: w.bounce.id,
          added_by: w.collection.owner_id,
          created_at: new Date().toISOString(),
        })
        .execute(),
    ).rejects.toThrow();
    await expect(
      buildCollectionItem(w.db, w.collection, { bounce_id: w.bounce.id }, 6),
    ).rejects.toThrow();
    await w.db.deleteFrom('bounces').where('id', '=', w.bounce.id).execute();
    const left = await w.db.selectFrom('collection_items').select('id').execute();
    expect(left).toEqual([{ id: w.item.id }]);
  });

  it("keeps the items' receipts and comments down and up again; down drops bounce items", async () => {
    const w = await world();
    const kept = async () => ({
      items: (
        await w.db.selectFrom('collection_items').select('id').orderBy('position').execute()
      ).map((row) => row.id),
      receipts: await w.db
        .selectFrom('collection_link_receipts')
        .select(['item_id', 'plays_started'])
        .execute(),
      comments: await w.db
        .selectFrom('collection_link_comments')
        .select(['comment_id', 'item_id'])
        .execute(),
    });
    const expected = {
      receipts: [{ item_id: w.item.id, plays_started: 3 }],
      comments: [{ comment_id: w.commentId, item_id: w.item.id }],
    };
    expect(await kept()).toEqual({ items: [w.item.id, w.bounceItem.id], ...expected });
    const migrator = await migratorOf(w.db);
    expect((await migrator.migrateTo('0030-collection-members')).error).toBeUndefined();
    expect(await kept()).toEqual({ items: [w.item.id], ...expected });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await kept()).toEqual({ items: [w.item.id], ...expected });
    // Still cascading from the rebuilt table.
    await w.db.deleteFrom('collection_items').where('id', '=', w.item.id).execute();
    expect(await kept()).toEqual({
      items: [],
      receipts: [],
      comments: [{ comment_id: w.commentId, item_id: null }],
    });
  });
});
