import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_MESSAGES, type Project, type SharedProject } from '@takes/contract';
import { api } from '../../../test/api';
import { buildMember, buildProject, buildUser, type BuiltUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const NEED_EDITOR = MEMBER_MESSAGES.needRole('editor');
const NEED_OWNER = MEMBER_MESSAGES.needRole('owner');

function expectError(response: LightMyRequestResponse, status: number, message: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<{ error: string }>().error).toBe(message);
}

describe('projects and branches: what each role may do', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A project of its own owner with one member of each role and a stranger, all signed in. */
  async function team() {
    const db = t.deps.database.db;
    const owner = await buildUser(db, { name: 'Olivia Owner' });
    const { project, branch } = await buildProject(db, owner.id, { name: 'Night Drive' });
    const target = { projectId: project.id };
    const people = {
      owner,
      editor: await buildMember(db, target, 'editor', { name: 'Eddie Editor' }),
      commenter: await buildMember(db, target, 'commenter', { name: 'Cora Commenter' }),
      viewer: await buildMember(db, target, 'viewer', { name: 'Vic Viewer' }),
      stranger: await buildUser(db, { name: 'Stan Stranger' }),
    };
    const as = (who: keyof typeof people) => api(t, people[who].cookie);
    return { project, branch, people, as };
  }

  it('lets every member read the project and its branches, with their own role; a stranger gets 404', async () => {
    const { project, as } = await team();
    for (const role of ['owner', 'editor', 'commenter', 'viewer'] as const) {
      const got = await as(role).get(`/api/projects/${project.id}`);
      expect(got.statusCode, got.body).toBe(200);
      expect(got.json<Project>()).toMatchObject({
        id: project.id,
        name: 'Night Drive',
        role,
        listed: false,
        branches: [{ name: 'main', is_default: true }],
      });
      const branches = await as(role).get(`/api/projects/${project.id}/branches`);
      expect(branches.statusCode, branches.body).toBe(200);
      expect(branches.json<{ name: string }[]>().map((b) => b.name)).toEqual(['main']);
    }
    expectError(await as('stranger').get(`/api/projects/${project.id}`), 404, 'Project not found');
    expectError(
      await as('stranger').get(`/api/projects/${project.id}/branches`),
      404,
      'Project not found',
    );
  });

  it('lets editors manage branches; commenters and viewers get 403, strangers 404', async () => {
    const { project, branch, as } = await team();
    const created = await as('editor').post(`/api/projects/${project.id}/branches`, {
      name: 'acoustic',
    });
    expect(created.statusCode, created.body).toBe(201);
    const acoustic = created.json<{ id: string }>().id;

    for (const role of ['commenter', 'viewer'] as const) {
      const who = as(role);
      expectError(
        await who.post(`/api/projects/${project.id}/branches`, { name: 'x' }),
        403,
        NEED_EDITOR,
      );
      expectError(await who.patch(`/api/branches/${acoustic}`, { name: 'x' }), 403, NEED_EDITOR);
      expectError(await who.post(`/api/branches/${acoustic}/default`), 403, NEED_EDITOR);
      expectError(await who.delete(`/api/branches/${acoustic}`), 403, NEED_EDITOR);
    }
    const stranger = as('stranger');
    expectError(
      await stranger.post(`/api/projects/${project.id}/branches`, { name: 'x' }),
      404,
      'Project not found',
    );
    expectError(
      await stranger.patch(`/api/branches/${acoustic}`, { name: 'x' }),
      404,
      'Branch not found',
    );
    expectError(await stranger.post(`/api/branches/${acoustic}/default`), 404, 'Branch not found');
    expectError(await stranger.delete(`/api/branches/${acoustic}`), 404, 'Branch not found');

    const editor = as('editor');
    expect(
      (await editor.patch(`/api/branches/${acoustic}`, { name: 'unplugged' })).json(),
    ).toMatchObject({ id: acoustic, name: 'unplugged' });
    expect((await editor.post(`/api/branches/${acoustic}/default`)).json()).toMatchObject({
      id: acoustic,
      is_default: true,
    });
    expect((await editor.post(`/api/branches/${branch.id}/default`)).statusCode).toBe(200);
    expect((await editor.delete(`/api/branches/${acoustic}`)).statusCode).toBe(204);
    // Nothing the refused calls tried happened.
    const left = (await as('owner').get(`/api/projects/${project.id}`)).json<Project>();
    expect(left.branches.map((b) => [b.name, b.is_default])).toEqual([['main', true]]);
  });

  it('keeps renaming, privacy, listing and deleting to the owner', async () => {
    const { project, as } = await team();
    for (const role of ['editor', 'commenter', 'viewer'] as const) {
      const who = as(role);
      expectError(
        await who.patch(`/api/projects/${project.id}`, { name: 'Hijacked' }),
        403,
        NEED_OWNER,
      );
      expectError(
        await who.patch(`/api/projects/${project.id}`, { description: 'x' }),
        403,
        NEED_OWNER,
      );
      expectError(
        await who.patch(`/api/projects/${project.id}`, { listed: true }),
        403,
        NEED_OWNER,
      );
      expectError(await who.patch(`/api/projects/${project.id}`, {}), 403, NEED_OWNER);
      expectError(await who.post(`/api/projects/${project.id}/toggle-privacy`), 403, NEED_OWNER);
      expectError(await who.delete(`/api/projects/${project.id}`), 403, NEED_OWNER);
    }
    const stranger = as('stranger');
    for (const response of [
      await stranger.patch(`/api/projects/${project.id}`, { name: 'Hijacked' }),
      await stranger.patch(`/api/projects/${project.id}`, { listed: true }),
      await stranger.post(`/api/projects/${project.id}/toggle-privacy`),
      await stranger.delete(`/api/projects/${project.id}`),
    ])
      expectError(response, 404, 'Project not found');

    const owner = as('owner');
    const unchanged = (await owner.get(`/api/projects/${project.id}`)).json<Project>();
    expect(unchanged).toMatchObject({ name: 'Night Drive', is_private: true, listed: false });

    const renamed = await owner.patch(`/api/projects/${project.id}`, {
      name: 'Night Drive II',
      listed: true,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Night Drive II', listed: true, role: 'owner' });
    const unlisted = await owner.patch(`/api/projects/${project.id}`, { listed: false });
    expect(unlisted.json()).toMatchObject({ name: 'Night Drive II', listed: false });
    expect((await owner.post(`/api/projects/${project.id}/toggle-privacy`)).json()).toMatchObject({
      is_private: false,
      role: 'owner',
    });
    // Members see the owner's changes, with their own role.
    expect((await as('viewer').get(`/api/projects/${project.id}`)).json()).toMatchObject({
      name: 'Night Drive II',
      is_private: false,
      role: 'viewer',
    });
    expect((await owner.delete(`/api/projects/${project.id}`)).statusCode).toBe(204);
    expectError(await as('editor').get(`/api/projects/${project.id}`), 404, 'Project not found');
  });

  it("lists a member's shared projects with the owner and their role, never under Your Projects", async () => {
    const { project, people, as } = await team();
    const db = t.deps.database.db;
    await db
      .insertInto('profiles')
      .values({
        user_id: people.owner.id,
        display_name: 'DJ Olivia',
        avatar_key: 'avatars/olivia.png',
        updated_at: '2025-05-01T10:00:00.000Z',
      })
      .execute();
    // The editor's own project, and an older project shared with them by someone else.
    const own = await buildProject(db, people.editor.id, { name: 'Editor Solo' });
    const other = await buildUser(db, { name: '  ' });
    const older = await buildProject(db, other.id, {
      name: 'Old Demo',
      updated_at: '2020-01-01T00:00:00.000Z',
    });
    await db
      .insertInto('project_members')
      .values({
        project_id: older.project.id,
        user_id: people.editor.id,
        role: 'viewer',
        created_at: new Date().toISOString(),
      })
      .execute();

    const editor = as('editor');
    const shared = await editor.get('/api/projects/shared');
    expect(shared.statusCode, shared.body).toBe(200);
    const list = shared.json<SharedProject[]>();
    expect(list.map((p) => [p.name, p.role])).toEqual([
      ['Night Drive', 'editor'],
      ['Old Demo', 'viewer'],
    ]);
    expect(list[0]).toMatchObject({
      id: project.id,
      owner_id: people.owner.id,
      owner: {
        id: people.owner.id,
        name: 'DJ Olivia',
        avatar_url: `/api/profile/avatar/${people.owner.id}?v=${Date.parse('2025-05-01T10:00:00.000Z')}`,
      },
      branches: [{ name: 'main', is_default: true }],
    });
    // No display name and a blank account name: the part of the address before the @ (as
    // comments and the Activity panel name them for the team).
    expect(list[1]?.owner).toEqual({
      id: other.id,
      name: other.email.split('@')[0],
      avatar_url: null,
    });
    const yours = (await editor.get('/api/projects')).json<Project[]>();
    expect(yours.map((p) => [p.id, p.role])).toEqual([[own.project.id, 'owner']]);

    // Every member sees it shared, each with their own role.
    expect((await as('viewer').get('/api/projects/shared')).json<SharedProject[]>()).toEqual([
      expect.objectContaining({ id: project.id, role: 'viewer' }),
    ]);
    // The owner's own project is not "shared with" them.
    expect((await as('owner').get('/api/projects/shared')).json()).toEqual([]);
    expect((await as('owner').get('/api/projects')).json<Project[]>().map((p) => p.id)).toEqual([
      project.id,
    ]);
    expect((await as('stranger').get('/api/projects/shared')).json()).toEqual([]);

    // Removed: gone from both lists and from the project itself on the next request.
    await db
      .deleteFrom('project_members')
      .where('project_id', '=', project.id)
      .where('user_id', '=', people.viewer.id)
      .execute();
    const viewer = as('viewer');
    expect((await viewer.get('/api/projects/shared')).json()).toEqual([]);
    expect((await viewer.get('/api/projects')).json()).toEqual([]);
    expectError(await viewer.get(`/api/projects/${project.id}`), 404, 'Project not found');
  });

  it('shows the owner’s account name when they have no display name', async () => {
    const db = t.deps.database.db;
    const owner = await buildUser(db, { name: 'Olivia Owner' });
    const { project } = await buildProject(db, owner.id);
    const member: BuiltUser = await buildMember(db, { projectId: project.id }, 'commenter');
    const [shared] = (await api(t, member.cookie).get('/api/projects/shared')).json<
      SharedProject[]
    >();
    expect(shared?.owner).toEqual({ id: owner.id, name: 'Olivia Owner', avatar_url: null });
    expect(shared?.role).toBe('commenter');
  });
});
