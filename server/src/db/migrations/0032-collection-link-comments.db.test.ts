import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildCollection,
  buildCollectionItem,
  buildCollectionLink,
  buildProject,
  buildUser,
  buildVersion,
} from '../../../test/factories';
import { migrationSuite } from '../../../test/migration-test';
import type { ObjectStore } from '../../storage/object-store';
import { migratorOf } from '../migrate';

/** Versions without a stored file: the factory never touches the store for them. */
const noStore = undefined as unknown as ObjectStore;

describe('migration 0032-collection-link-comments', () => {
  const { fresh } = migrationSuite('0032-collection-link-comments');

  it('fills in the collection link of earlier comments, and keeps them private when the link goes', async () => {
    const { db } = await fresh();
    const owner = await buildUser(db);
    const { project, branch } = await buildProject(db, owner.id);
    const version = await buildVersion(
      { db, storage: noStore },
      { projectId: project.id, branchId: branch.id },
    );
    const collection = await buildCollection(db, owner.id);
    const item = await buildCollectionItem(db, collection, { version_id: version.id });
    const { id: linkId } = await buildCollectionLink(db, collection.id);
    const now = new Date().toISOString();
    const comment = (id: string) => ({
      id,
      version_id: version.id,
      user_id: null,
      visitor_name: 'Ana',
      link_id: null,
      parent_id: null,
      content: 'Private note',
      timestamp_seconds: null,
      end_timestamp_seconds: null,
      resolved_at: null,
      created_at: now,
      team_only: 0,
    });
    const [through, elsewhere] = [randomUUID(), randomUUID()];
    await db
      .insertInto('comments')
      .values([comment(through), comment(elsewhere)])
      .execute();
    await db
      .insertInto('collection_link_comments')
      .values({ comment_id: through, link_id: linkId, item_id: item.id })
      .execute();

    // As before this migration: the comment knows nothing of its link; then up again.
    const migrator = await migratorOf(db);
    expect((await migrator.migrateTo('0031-collection-bounces')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const rows = () =>
      db
        .selectFrom('comments')
        .select(['id', 'collection_link_id', 'through_collection_link'])
        .orderBy('created_at')
        .execute();
    expect(new Map((await rows()).map((row) => [row.id, row]))).toEqual(
      new Map([
        [through, { id: through, collection_link_id: linkId, through_collection_link: 1 }],
        [elsewhere, { id: elsewhere, collection_link_id: null, through_collection_link: 0 }],
      ]),
    );

    // The collection goes with its links: the comment stays on its version, still private.
    await db.deleteFrom('collections').where('id', '=', collection.id).execute();
    expect((await rows()).find((row) => row.id === through)).toEqual({
      id: through,
      collection_link_id: null,
      through_collection_link: 1,
    });
  });
});
