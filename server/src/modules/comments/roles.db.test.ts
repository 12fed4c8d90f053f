import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_MESSAGES, type Comment } from '@takes/contract';
import { api, ORIGIN } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const NEED_EDITOR = MEMBER_MESSAGES.needRole('editor');
const NEED_COMMENTER = MEMBER_MESSAGES.needRole('commenter');

function expectError(response: LightMyRequestResponse, status: number, message: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<{ error: string }>().error).toBe(message);
}

describe('comments: what each role may do', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A version with one member of each role (display names set) and a stranger. */
  async function team() {
    const db = t.deps.database.db;
    const owner = await buildUser(db, { name: 'Olivia Owner' });
    const { project, branch } = await buildProject(db, owner.id);
    const version = await buildVersion(depsOf(t), { projectId: project.id, branchId: branch.id });
    const target = { projectId: project.id };
    const people = {
      owner,
      editor: await buildMember(db, target, 'editor', { name: 'Eddie Editor' }),
      commenter: await buildMember(db, target, 'commenter', { name: 'cora' }),
      viewer: await buildMember(db, target, 'viewer', { name: 'Vic Viewer' }),
      stranger: await buildUser(db),
    };
    await db
      .insertInto('profiles')
      .values({
        user_id: people.commenter.id,
        display_name: 'Cora Commenter',
        avatar_key: 'avatars/cora.png',
        updated_at: '2025-06-01T08:00:00.000Z',
      })
      .execute();
    const as = (who: keyof typeof people) => api(t, people[who].cookie);
    const comment = async (who: keyof typeof people, content: string) => {
      const response = await as(who).post(`/api/versions/${version.id}/comments`, {
        content,
        timestamp: 12.5,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<Comment>();
    };
    return { version, people, as, comment };
  }

  it('lets commenters and up write under their own name; viewers get 403, strangers 404', async () => {
    const { version, people, as, comment } = await team();
    const mine = await comment('commenter', 'Kick too loud at 0:12');
    expect(mine).toMatchObject({
      user_id: people.commenter.id,
      author: 'Cora Commenter',
      avatar_url: `/api/profile/avatar/${people.commenter.id}?v=${Date.parse('2025-06-01T08:00:00.000Z')}`,
      timestamp: 12.5,
      visitor_name: null,
    });
    expect(await comment('editor', 'Agreed')).toMatchObject({ author: 'Eddie Editor' });
    const reply = await as('commenter').post(`/api/versions/${version.id}/comments`, {
      content: 'Fixed in the next take?',
      parent_id: mine.id,
    });
    expect(reply.statusCode, reply.body).toBe(201);

    expectError(
      await as('viewer').post(`/api/versions/${version.id}/comments`, { content: 'Nice' }),
      403,
      NEED_COMMENTER,
    );
    expectError(
      await as('stranger').post(`/api/versions/${version.id}/comments`, { content: 'Nice' }),
      404,
      'Version not found',
    );

    // Every member reads them all; a stranger cannot.
    for (const role of ['owner', 'editor', 'commenter', 'viewer'] as const) {
      const list = await as(role).get(`/api/versions/${version.id}/comments`);
      expect(list.statusCode, list.body).toBe(200);
      expect(
        list
          .json<Comment[]>()
          .map((c) => c.author)
          .sort(),
      ).toEqual(['Cora Commenter', 'Cora Commenter', 'Eddie Editor']);
    }
    expectError(
      await as('stranger').get(`/api/versions/${version.id}/comments`),
      404,
      'Version not found',
    );
  });

  it("lets a commenter resolve and delete their own comments, not the owner's", async () => {
    const { as, comment } = await team();
    const theirs = await comment('owner', 'Owner note');
    const mine = await comment('commenter', 'My note');
    const commenter = as('commenter');

    const resolved = await commenter.patch(`/api/comments/${mine.id}`, { resolved: true });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ id: mine.id, resolved: true });
    expectError(
      await commenter.patch(`/api/comments/${theirs.id}`, { resolved: true }),
      403,
      NEED_EDITOR,
    );
    expectError(await commenter.delete(`/api/comments/${theirs.id}`), 403, NEED_EDITOR);
    expect((await commenter.delete(`/api/comments/${mine.id}`)).statusCode).toBe(204);

    // A viewer may not touch comments at all, a stranger does not see them.
    expectError(
      await as('viewer').patch(`/api/comments/${theirs.id}`, { resolved: true }),
      403,
      NEED_EDITOR,
    );
    expectError(await as('viewer').delete(`/api/comments/${theirs.id}`), 403, NEED_EDITOR);
    expectError(
      await as('stranger').patch(`/api/comments/${theirs.id}`, { resolved: true }),
      404,
      'Comment not found',
    );
    expectError(
      await as('stranger').delete(`/api/comments/${theirs.id}`),
      404,
      'Comment not found',
    );

    const left = (await as('owner').get(`/api/versions/${theirs.version_id}/comments`)).json<
      Comment[]
    >();
    expect(left.map((c) => [c.id, c.resolved])).toEqual([[theirs.id, false]]);
  });

  it("lets an editor resolve and delete anybody's comment", async () => {
    const { as, comment } = await team();
    const owners = await comment('owner', 'Owner note');
    const commenters = await comment('commenter', 'Commenter note');
    const editor = as('editor');
    expect(
      (await editor.patch(`/api/comments/${owners.id}`, { resolved: true })).json(),
    ).toMatchObject({ id: owners.id, resolved: true });
    expect((await editor.delete(`/api/comments/${commenters.id}`)).statusCode).toBe(204);
    expect((await editor.delete(`/api/comments/${owners.id}`)).statusCode).toBe(204);
    expect((await as('owner').get(`/api/versions/${owners.version_id}/comments`)).json()).toEqual(
      [],
    );
  });

  it('follows role changes and removal on the next request', async () => {
    const { people, as, comment } = await team();
    const mine = await comment('commenter', 'Before the change');
    const db = t.deps.database.db;
    await db
      .updateTable('project_members')
      .set({ role: 'viewer' })
      .where('user_id', '=', people.commenter.id)
      .execute();
    // Now a viewer: their own comment is no longer theirs to resolve or delete.
    expectError(
      await as('commenter').patch(`/api/comments/${mine.id}`, { resolved: true }),
      403,
      NEED_COMMENTER,
    );
    expectError(
      await as('commenter').post(`/api/versions/${mine.version_id}/comments`, { content: 'x' }),
      403,
      NEED_COMMENTER,
    );
    await db.deleteFrom('project_members').where('user_id', '=', people.commenter.id).execute();
    expectError(await as('commenter').delete(`/api/comments/${mine.id}`), 404, 'Comment not found');
    expectError(
      await as('commenter').get(`/api/versions/${mine.version_id}/comments`),
      404,
      'Version not found',
    );
  });

  it('keeps share-link visitors commenting as before', async () => {
    const { version, as } = await team();
    const link = await as('editor').post(`/api/versions/${version.id}/links`, {});
    expect(link.statusCode, link.body).toBe(201);
    const { hash } = link.json<{ hash: string }>();
    const posted = await t.app.inject({
      method: 'POST',
      url: `/api/links/hash/${hash}/comments`,
      payload: { content: 'Love the bridge', visitor_name: 'A Fan' },
      headers: { origin: ORIGIN },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json()).toMatchObject({ author: 'A Fan', user_id: null });
    const listed = (await as('viewer').get(`/api/versions/${version.id}/comments`)).json<
      Comment[]
    >();
    expect(listed.map((c) => c.author)).toEqual(['A Fan']);
  });
});
