import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_MESSAGES, type ShareLink } from '@takes/contract';
import { api } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const NEED_EDITOR = MEMBER_MESSAGES.needRole('editor');

function expectError(response: LightMyRequestResponse, status: number, message: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<{ error: string }>().error).toBe(message);
}

describe('share links: what each role may do', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function team() {
    const db = t.deps.database.db;
    const owner = await buildUser(db);
    const { project, branch } = await buildProject(db, owner.id, { name: 'Night Drive' });
    const version = await buildVersion(depsOf(t), { projectId: project.id, branchId: branch.id });
    const target = { projectId: project.id };
    const people = {
      owner,
      editor: await buildMember(db, target, 'editor'),
      commenter: await buildMember(db, target, 'commenter'),
      viewer: await buildMember(db, target, 'viewer'),
      stranger: await buildUser(db),
    };
    const as = (who: keyof typeof people) => api(t, people[who].cookie);
    return { version, people, as };
  }

  it("lets an editor create, list, change and revoke links, the owner's too", async () => {
    const { version, people, as } = await team();
    const owner = as('owner');
    const editor = as('editor');
    const ownersLink = (
      await owner.post(`/api/versions/${version.id}/links`, {})
    ).json<ShareLink>();

    const created = await editor.post(`/api/versions/${version.id}/links`, {
      download_enabled: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const editorsLink = created.json<ShareLink>();
    expect(editorsLink).toMatchObject({ name: 'Night Drive - Version 1', download_enabled: true });
    const row = await t.deps.database.db
      .selectFrom('links')
      .select('owner_id')
      .where('id', '=', editorsLink.id)
      .executeTakeFirstOrThrow();
    // The link records who made it.
    expect(row.owner_id).toBe(people.editor.id);

    // Owner and editor both see every live link of the version, whoever made it.
    for (const who of [owner, editor]) {
      const list = (await who.get(`/api/versions/${version.id}/links`)).json<ShareLink[]>();
      expect(list.map((l) => l.id).sort()).toEqual([ownersLink.id, editorsLink.id].sort());
    }

    const changed = await editor.patch(`/api/links/${ownersLink.id}`, {
      listeners_see_each_other: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: ownersLink.id, listeners_see_each_other: false });
    expect((await editor.delete(`/api/links/${ownersLink.id}`)).statusCode).toBe(204);
    expect((await owner.delete(`/api/links/${editorsLink.id}`)).statusCode).toBe(204);
    expect((await owner.get(`/api/versions/${version.id}/links`)).json()).toEqual([]);
    // A revoked link cannot be changed or revoked again.
    expectError(
      await editor.patch(`/api/links/${ownersLink.id}`, { listeners_see_each_other: true }),
      404,
      'Link not found',
    );
    expectError(await editor.delete(`/api/links/${ownersLink.id}`), 404, 'Link not found');
  });

  it('refuses commenters and viewers with 403 and strangers with 404, changing nothing', async () => {
    const { version, as } = await team();
    const link = (
      await as('owner').post(`/api/versions/${version.id}/links`, {})
    ).json<ShareLink>();
    for (const role of ['commenter', 'viewer'] as const) {
      const who = as(role);
      expectError(await who.post(`/api/versions/${version.id}/links`, {}), 403, NEED_EDITOR);
      expectError(await who.get(`/api/versions/${version.id}/links`), 403, NEED_EDITOR);
      expectError(
        await who.patch(`/api/links/${link.id}`, { listeners_see_each_other: false }),
        403,
        NEED_EDITOR,
      );
      expectError(await who.delete(`/api/links/${link.id}`), 403, NEED_EDITOR);
    }
    const stranger = as('stranger');
    expectError(
      await stranger.post(`/api/versions/${version.id}/links`, {}),
      404,
      'Version not found',
    );
    expectError(await stranger.get(`/api/versions/${version.id}/links`), 404, 'Version not found');
    expectError(
      await stranger.patch(`/api/links/${link.id}`, { listeners_see_each_other: false }),
      404,
      'Link not found',
    );
    expectError(await stranger.delete(`/api/links/${link.id}`), 404, 'Link not found');

    const list = (await as('owner').get(`/api/versions/${version.id}/links`)).json<ShareLink[]>();
    expect(list).toEqual([{ ...link, listeners_see_each_other: true }]);
    // Still open for visitors.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/links/hash/${link.hash}` })).statusCode,
    ).toBe(200);
  });

  it('takes a removed editor’s link rights away on the next request', async () => {
    const { version, people, as } = await team();
    const editor = as('editor');
    const link = (await editor.post(`/api/versions/${version.id}/links`, {})).json<ShareLink>();
    await t.deps.database.db
      .deleteFrom('project_members')
      .where('user_id', '=', people.editor.id)
      .execute();
    expectError(await editor.delete(`/api/links/${link.id}`), 404, 'Link not found');
    expectError(await editor.get(`/api/versions/${version.id}/links`), 404, 'Version not found');
    // The link itself belongs to the project and keeps working.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/links/hash/${link.hash}` })).statusCode,
    ).toBe(200);
  });
});
