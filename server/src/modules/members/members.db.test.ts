import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  endpoints,
  MEMBER_MESSAGES,
  memberSchema,
  membersResponseSchema,
  projectSchema,
  repositorySchema,
  type ApiClient,
} from '@takes/contract';
import { client } from '../../../test/api';
import {
  addMember,
  buildCommit,
  buildMember,
  buildProject,
  buildRepo,
  buildUser,
  buildVersion,
  depsOf,
  type BuiltUser,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const api = endpoints.members;

/** Members made in the same millisecond have no order between them: compare as sets. */
const byUser = (members: { user_id: string; role: string }[]) =>
  members.map((m) => `${m.user_id}:${m.role}`).sort();

/** What a refused call answered: its status and the server's message. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; error?: string }> {
  try {
    await call;
  } catch (error) {
    const e = error as { status: number; serverMessage?: string };
    return { status: e.status, error: e.serverMessage };
  }
  throw new Error('the call was not refused');
}

describe('project members', () => {
  let t: TestApp;
  let as: (user?: { cookie: string }) => ApiClient;
  let owner: BuiltUser;

  const at = (minutes: number) => new Date(Date.UTC(2031, 0, 1, 12, minutes)).toISOString();

  beforeAll(async () => {
    t = await createTestApp();
    as = (user) => client(t, user?.cookie);
    owner = await buildUser(t.deps.database.db, { name: 'Ana Account' });
  });
  afterAll(() => t.close());

  it('lists the owner first, then members by joining date; only the owner sees invitations', async () => {
    const db = t.deps.database.db;
    const { project } = await buildProject(db, owner.id, { created_at: at(0) });
    const projectId = project.id;
    const later = await buildUser(db, { name: 'Zoe Account', email: 'zoe@example.com' });
    const earlier = await buildUser(db, { name: '', email: 'nameless@example.com' });
    const withProfile = await buildUser(db, { name: 'Account Name' });
    await db
      .insertInto('profiles')
      .values({
        user_id: withProfile.id,
        display_name: 'Stage Name',
        avatar_key: `avatars/${withProfile.id}/a.png`,
        updated_at: at(5),
      })
      .execute();
    for (const [user, role, minutes] of [
      [later, 'viewer', 30],
      [earlier, 'editor', 10],
      [withProfile, 'commenter', 20],
    ] as const) {
      await db
        .insertInto('project_members')
        .values({ project_id: projectId, user_id: user.id, role, created_at: at(minutes) })
        .execute();
    }
    await as(owner).call(api.inviteToProject, {
      params: { projectId },
      body: { email: 'pending@example.com', role: 'viewer' },
    });

    const list = await as(owner).call(api.listProjectMembers, { params: { projectId } });
    expect(membersResponseSchema.parse(list)).toEqual(list);
    expect(list.role).toBe('owner');
    expect(list.members).toEqual([
      {
        user_id: owner.id,
        email: owner.email,
        name: 'Ana Account',
        avatar_url: null,
        role: 'owner',
        joined_at: project.created_at,
        links_made: 0,
      },
      {
        user_id: earlier.id,
        email: 'nameless@example.com',
        name: null,
        avatar_url: null,
        role: 'editor',
        joined_at: at(10),
        links_made: 0,
      },
      {
        user_id: withProfile.id,
        email: withProfile.email,
        name: 'Stage Name',
        avatar_url: `/api/profile/avatar/${withProfile.id}?v=${new Date(at(5)).getTime()}`,
        role: 'commenter',
        joined_at: at(20),
        links_made: 0,
      },
      {
        user_id: later.id,
        email: 'zoe@example.com',
        name: 'Zoe Account',
        avatar_url: null,
        role: 'viewer',
        joined_at: at(30),
        links_made: 0,
      },
    ]);
    expect(list.invitations.map((i) => [i.email, i.role])).toEqual([
      ['pending@example.com', 'viewer'],
    ]);

    for (const [member, role] of [
      [earlier, 'editor'],
      [withProfile, 'commenter'],
      [later, 'viewer'],
    ] as const) {
      const theirs = await as(member).call(api.listProjectMembers, { params: { projectId } });
      expect(theirs.role).toBe(role);
      // The same people, without the owner's count of the share links each made.
      expect(theirs.members).toEqual(list.members.map(({ links_made: _, ...rest }) => rest));
      expect(theirs.invitations).toEqual([]);
    }

    const stranger = await buildUser(db);
    expect(
      await refusal(as(stranger).call(api.listProjectMembers, { params: { projectId } })),
    ).toEqual({ status: 404, error: 'Project not found' });
    expect(
      await refusal(as().call(api.listProjectMembers, { params: { projectId } })),
    ).toMatchObject({ status: 401 });
    expect(
      await refusal(
        as(owner).call(api.listProjectMembers, { params: { projectId: randomUUID() } }),
      ),
    ).toEqual({ status: 404, error: 'Project not found' });
  });

  it("a role change applies to the member's next request", async () => {
    const { project } = await buildProject(t.deps.database.db, owner.id);
    const projectId = project.id;
    const member = await buildMember(t.deps.database.db, { projectId }, 'commenter');
    const access = t.services.access;
    expect((await access.project(member.id, projectId, 'comment')).role).toBe('commenter');

    const changed = await as(owner).call(api.changeProjectMemberRole, {
      params: { projectId, userId: member.id },
      body: { role: 'viewer' },
    });
    expect(memberSchema.parse(changed)).toEqual(changed);
    expect(changed).toMatchObject({ user_id: member.id, email: member.email, role: 'viewer' });

    await expect(access.project(member.id, projectId, 'comment')).rejects.toMatchObject({
      code: 'forbidden',
      message: 'You need Commenter access to do this.',
    });
    expect((await as(member).call(api.listProjectMembers, { params: { projectId } })).role).toBe(
      'viewer',
    );

    await as(owner).call(api.changeProjectMemberRole, {
      params: { projectId, userId: member.id },
      body: { role: 'editor' },
    });
    expect((await access.project(member.id, projectId, 'upload')).role).toBe('editor');
    // Still not the owner's actions.
    expect(
      await refusal(
        as(member).call(api.changeProjectMemberRole, {
          params: { projectId, userId: member.id },
          body: { role: 'viewer' },
        }),
      ),
    ).toEqual({ status: 403, error: MEMBER_MESSAGES.needRole('owner') });
  });

  it("the owner's role is not changed and the owner is not removed; non-members are 404", async () => {
    const { project } = await buildProject(t.deps.database.db, owner.id);
    const projectId = project.id;
    expect(
      await refusal(
        as(owner).call(api.changeProjectMemberRole, {
          params: { projectId, userId: owner.id },
          body: { role: 'editor' },
        }),
      ),
    ).toEqual({ status: 409, error: MEMBER_MESSAGES.ownerRoleFixed });
    expect(
      await refusal(
        as(owner).call(api.removeProjectMember, { params: { projectId, userId: owner.id } }),
      ),
    ).toEqual({ status: 409, error: MEMBER_MESSAGES.ownerCannotBeRemoved });
    const outsider = await buildUser(t.deps.database.db);
    expect(
      await refusal(
        as(owner).call(api.changeProjectMemberRole, {
          params: { projectId, userId: outsider.id },
          body: { role: 'editor' },
        }),
      ),
    ).toEqual({ status: 404, error: MEMBER_MESSAGES.memberNotFound });
    expect(
      await refusal(
        as(owner).call(api.removeProjectMember, { params: { projectId, userId: outsider.id } }),
      ),
    ).toEqual({ status: 404, error: MEMBER_MESSAGES.memberNotFound });
    // A non-member asking about the project learns nothing.
    expect(
      await refusal(
        as(outsider).call(api.removeProjectMember, { params: { projectId, userId: owner.id } }),
      ),
    ).toEqual({ status: 404, error: 'Project not found' });
    expect(await t.services.access.projectRole(owner.id, projectId)).toBe('owner');
  });

  it('a removed member is refused on their very next request', async () => {
    const { project, branch } = await buildProject(t.deps.database.db, owner.id);
    const projectId = project.id;
    const version = await buildVersion(depsOf(t), { projectId, branchId: branch.id });
    const member = await buildMember(t.deps.database.db, { projectId }, 'editor');
    const editor = await buildMember(t.deps.database.db, { projectId }, 'editor');
    expect((await t.services.access.version(member.id, version.id, 'listen')).projectId).toBe(
      projectId,
    );

    expect(
      await refusal(
        as(editor).call(api.removeProjectMember, { params: { projectId, userId: member.id } }),
      ),
    ).toEqual({ status: 403, error: MEMBER_MESSAGES.needRole('owner') });

    await as(owner).call(api.removeProjectMember, { params: { projectId, userId: member.id } });
    expect(
      await refusal(as(member).call(api.listProjectMembers, { params: { projectId } })),
    ).toEqual({ status: 404, error: 'Project not found' });
    await expect(t.services.access.version(member.id, version.id, 'listen')).rejects.toMatchObject({
      code: 'not_found',
      message: 'Version not found',
    });
    await expect(t.services.access.project(member.id, projectId, 'view')).rejects.toMatchObject({
      code: 'not_found',
    });
    const list = await as(owner).call(api.listProjectMembers, { params: { projectId } });
    expect(list.members.map((m) => m.user_id)).toEqual([owner.id, editor.id]);
    // Removing them again: they are no longer a member.
    expect(
      await refusal(
        as(owner).call(api.removeProjectMember, { params: { projectId, userId: member.id } }),
      ),
    ).toEqual({ status: 404, error: MEMBER_MESSAGES.memberNotFound });
  });

  it('a member leaves; the owner cannot leave without transferring first', async () => {
    const { project } = await buildProject(t.deps.database.db, owner.id);
    const projectId = project.id;
    const member = await buildMember(t.deps.database.db, { projectId }, 'viewer');
    await as(member).call(api.leaveProject, { params: { projectId } });
    expect(await t.services.access.projectRole(member.id, projectId)).toBeNull();
    expect(await refusal(as(member).call(api.leaveProject, { params: { projectId } }))).toEqual({
      status: 404,
      error: 'Project not found',
    });
    expect(await refusal(as(owner).call(api.leaveProject, { params: { projectId } }))).toEqual({
      status: 409,
      error: 'Transfer ownership before leaving.',
    });
    expect(await t.services.access.projectRole(owner.id, projectId)).toBe('owner');
  });

  it('transfers ownership to an editor; the old owner becomes an editor', async () => {
    const db = t.deps.database.db;
    const { project, branch } = await buildProject(db, owner.id, { name: 'Handover' });
    const projectId = project.id;
    await buildVersion(depsOf(t), { projectId, branchId: branch.id });
    const editor = await buildMember(db, { projectId }, 'editor');
    const viewer = await buildMember(db, { projectId }, 'viewer');
    const commenter = await buildMember(db, { projectId }, 'commenter');
    const outsider = await buildUser(db);

    for (const target of [viewer, commenter, outsider, owner]) {
      expect(
        await refusal(
          as(owner).call(api.transferProject, {
            params: { projectId },
            body: { user_id: target.id },
          }),
        ),
      ).toEqual({ status: 409, error: 'Ownership can only be handed to an editor.' });
    }
    expect(
      await refusal(
        as(editor).call(api.transferProject, {
          params: { projectId },
          body: { user_id: editor.id },
        }),
      ),
    ).toEqual({ status: 403, error: MEMBER_MESSAGES.needRole('owner') });
    expect(
      await refusal(
        as(outsider).call(api.transferProject, {
          params: { projectId },
          body: { user_id: outsider.id },
        }),
      ),
    ).toEqual({ status: 404, error: 'Project not found' });
    expect(await t.services.access.projectRole(owner.id, projectId)).toBe('owner');

    const handed = await as(owner).call(api.transferProject, {
      params: { projectId },
      body: { user_id: editor.id },
    });
    expect(projectSchema.parse(handed)).toEqual(handed);
    expect(handed).toMatchObject({
      id: projectId,
      name: 'Handover',
      owner_id: editor.id,
      role: 'editor',
      is_private: true,
      listed: false,
      branches: [
        { id: branch.id, project_id: projectId, name: 'main', is_default: true, version_count: 1 },
      ],
    });

    expect(await t.services.access.projectRole(editor.id, projectId)).toBe('owner');
    expect(await t.services.access.projectRole(owner.id, projectId)).toBe('editor');
    const list = await as(editor).call(api.listProjectMembers, { params: { projectId } });
    expect(list.role).toBe('owner');
    expect(list.members[0]).toMatchObject({ user_id: editor.id, role: 'owner' });
    expect(byUser(list.members.slice(1))).toEqual(
      byUser([
        { user_id: viewer.id, role: 'viewer' },
        { user_id: commenter.id, role: 'commenter' },
        { user_id: owner.id, role: 'editor' },
      ]),
    );
    // The old owner now manages nothing, and may leave.
    expect(
      await refusal(
        as(owner).call(api.inviteToProject, {
          params: { projectId },
          body: { email: 'late@example.com' },
        }),
      ),
    ).toEqual({ status: 403, error: MEMBER_MESSAGES.needRole('owner') });
    await as(owner).call(api.leaveProject, { params: { projectId } });
    expect(await t.services.access.projectRole(owner.id, projectId)).toBeNull();
  });

  it('deleting a project or a member account takes the rows with it', async () => {
    const db = t.deps.database.db;
    const { project } = await buildProject(db, owner.id);
    const member = await buildMember(db, { projectId: project.id }, 'viewer');
    const other = await buildMember(db, { projectId: project.id }, 'editor');
    await as(owner).call(api.inviteToProject, {
      params: { projectId: project.id },
      body: { email: 'cascade@example.com' },
    });
    await db.deleteFrom('users').where('id', '=', member.id).execute();
    const rows = await db
      .selectFrom('project_members')
      .select('user_id')
      .where('project_id', '=', project.id)
      .execute();
    expect(rows).toEqual([{ user_id: other.id }]);
    await db.deleteFrom('projects').where('id', '=', project.id).execute();
    expect(
      await db
        .selectFrom('project_members')
        .select('user_id')
        .where('project_id', '=', project.id)
        .execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('invitations')
        .select('id')
        .where('project_id', '=', project.id)
        .execute(),
    ).toEqual([]);
  });
});

describe('repository members', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists, changes roles, removes and lets members leave', async () => {
    const db = t.deps.database.db;
    const owner = await buildUser(db);
    const repo = await buildRepo(db, owner.id);
    const editor = await buildMember(db, { repoId: repo.id }, 'editor');
    const viewer = await buildMember(db, { repoId: repo.id }, 'viewer');
    const as = (user: { cookie: string }) => client(t, user.cookie);
    const params = { id: repo.id };

    const list = await as(viewer).call(api.listRepoMembers, { params });
    expect(list.role).toBe('viewer');
    expect(list.members[0]).toMatchObject({ user_id: owner.id, role: 'owner' });
    expect(byUser(list.members.slice(1))).toEqual(
      byUser([
        { user_id: editor.id, role: 'editor' },
        { user_id: viewer.id, role: 'viewer' },
      ]),
    );
    expect(list.members[0]?.joined_at).toBe(repo.created_at);

    const changed = await as(owner).call(api.changeRepoMemberRole, {
      params: { ...params, userId: viewer.id },
      body: { role: 'commenter' },
    });
    expect(changed.role).toBe('commenter');
    expect(await t.services.access.repoRole(viewer.id, repo.id)).toBe('commenter');
    expect(
      await refusal(
        as(editor).call(api.changeRepoMemberRole, {
          params: { ...params, userId: viewer.id },
          body: { role: 'viewer' },
        }),
      ),
    ).toEqual({ status: 403, error: MEMBER_MESSAGES.needRole('owner') });

    await as(owner).call(api.removeRepoMember, { params: { ...params, userId: viewer.id } });
    expect(await refusal(as(viewer).call(api.listRepoMembers, { params }))).toEqual({
      status: 404,
      error: 'Repository not found',
    });
    await expect(t.services.access.repository(viewer.id, repo.id, 'view')).rejects.toMatchObject({
      code: 'not_found',
    });

    await as(editor).call(api.leaveRepo, { params });
    expect(await t.services.access.repoRole(editor.id, repo.id)).toBeNull();
    expect(await refusal(as(owner).call(api.leaveRepo, { params }))).toEqual({
      status: 409,
      error: MEMBER_MESSAGES.ownerCannotLeave,
    });
  });

  it('transfers a repository to an editor, unless they already have one of that name', async () => {
    const db = t.deps.database.db;
    const owner = await buildUser(db);
    const repo = await buildRepo(db, owner.id, { name: 'Demos 2031' });
    await buildCommit(db, repo.id, { branch: 'main' });
    const editor = await buildMember(db, { repoId: repo.id }, 'editor');
    const viewer = await buildMember(db, { repoId: repo.id }, 'viewer');
    await buildRepo(db, editor.id, { name: 'DEMOS 2031', name_key: 'demos 2031' });
    const as = (user: { cookie: string }) => client(t, user.cookie);

    expect(
      await refusal(
        as(owner).call(api.transferRepo, { params: { id: repo.id }, body: { user_id: viewer.id } }),
      ),
    ).toEqual({ status: 409, error: MEMBER_MESSAGES.transferToEditor });
    expect(
      await refusal(
        as(owner).call(api.transferRepo, { params: { id: repo.id }, body: { user_id: editor.id } }),
      ),
    ).toEqual({ status: 409, error: 'The new owner already has a repository named Demos 2031.' });
    // Nothing moved.
    expect(await t.services.access.repoRole(owner.id, repo.id)).toBe('owner');
    expect(await t.services.access.repoRole(editor.id, repo.id)).toBe('editor');

    // A second editor without such a repository can take it.
    const other = await buildUser(db);
    await addMember(db, { repoId: repo.id }, other.id, 'editor');
    const handed = await as(owner).call(api.transferRepo, {
      params: { id: repo.id },
      body: { user_id: other.id },
    });
    expect(repositorySchema.parse(handed)).toEqual(handed);
    expect(handed).toMatchObject({
      id: repo.id,
      name: 'Demos 2031',
      role: 'editor',
      patch_count: 1,
      bounce_count: 0,
      default_branch: 'main',
      cover_url: null,
    });
    expect(handed.pull_url).toContain(`repo=${repo.id}`);
    expect(await t.services.access.repoRole(other.id, repo.id)).toBe('owner');
    expect(await t.services.access.repoRole(owner.id, repo.id)).toBe('editor');
    const stored = await db
      .selectFrom('repos')
      .select(['owner_id', 'name_key'])
      .where('id', '=', repo.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ owner_id: other.id, name_key: 'demos 2031' });
  });
});
