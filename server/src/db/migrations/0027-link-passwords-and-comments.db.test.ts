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
import type { ObjectStore } from '../../storage/object-store';
import { migrationSuite } from '../../../test/migration-test';

/** Versions without a stored file: the factory never touches the store for them. */
const noStore = undefined as unknown as ObjectStore;

describe('migration 0027-link-passwords-and-comments', () => {
  const { fresh } = migrationSuite('0027-link-passwords-and-comments');

  it('keeps a comment when its collection link or item goes, dropping only the association', async () => {
    const { db } = await fresh();
    const owner = await buildUser(db);
    const { project, branch } = await buildProject(db, owner.id);
    const version = await buildVersion(
      { db, storage: noStore },
      { projectId: project.id, branchId: branch.id },
    );
    const collection = await buildCollection(db, owner.id);
    const item = await buildCollectionItem(db, collection, { version_id: version.id });
    const now = new Date().toISOString();
    const { id: linkId } = await buildCollectionLink(db, collection.id, { emailed_at: now });
    const comment = (id: string) => ({
      id,
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
    });
    const [first, second] = [randomUUID(), randomUUID()];
    await db
      .insertInto('comments')
      .values([comment(first), comment(second)])
      .execute();
    await db
      .insertInto('collection_link_comments')
      .values([first, second].map((id) => ({ comment_id: id, link_id: linkId, item_id: item.id })))
      .execute();
    const associations = () =>
      db.selectFrom('collection_link_comments').selectAll().orderBy('comment_id').execute();

    // Deleting a comment deletes its association.
    await db.deleteFrom('comments').where('id', '=', second).execute();
    expect((await associations()).map((row) => row.comment_id)).toEqual([first]);
    // Removing the item keeps the comment's link, without the item.
    await db.deleteFrom('collection_items').where('id', '=', item.id).execute();
    expect(await associations()).toEqual([{ comment_id: first, link_id: linkId, item_id: null }]);
    // Deleting the collection (and so its links) keeps the comment on its version.
    await db.deleteFrom('collections').where('id', '=', collection.id).execute();
    expect(await associations()).toEqual([]);
    expect(await db.selectFrom('comments').select('id').execute()).toEqual([{ id: first }]);
  });
});
