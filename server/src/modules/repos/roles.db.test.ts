import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MEMBER_MESSAGES,
  REPO_MESSAGES,
  type Bounce,
  type MemberRole,
  type PublishResponse,
  type RecentBounce,
  type Repository,
  type Role,
} from '@takes/contract';
import { api, ORIGIN } from '../../../test/api';
import {
  addMember,
  buildMember,
  buildProject,
  buildRepo,
  buildVersion,
  depsOf,
  publishBounce,
} from '../../../test/factories';
import {
  nightDrive,
  publishFile,
  putUpload,
  setupRepoTest,
  useRepoAudio,
  type Client,
  type RepoTestContext,
} from '../../../test/repos-setup';
import type { TestApp } from '../../../test/test-app';

// The smallest valid PNG (1×1, transparent).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const NEED_EDITOR = MEMBER_MESSAGES.needRole('editor');
const NEED_OWNER = MEMBER_MESSAGES.needRole('owner');
const REPO_NOT_FOUND = { error: 'Repository not found', code: 'not_found' };

const audio = useRepoAudio();

interface Person {
  id: string;
  cookie: string;
  client: Client;
}

/** POST /api/repos/:id/cover as multipart, signed in with `cookie`. */
function sendCover(t: TestApp, cookie: string, repoId: string) {
  const boundary = '----takescover';
  return t.app.inject({
    method: 'POST',
    url: `/api/repos/${repoId}/cover`,
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="cover_image"; filename="cover.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: {
      cookie,
      origin: ORIGIN,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
  });
}

/** A desktop/CLI access token for a signed-in person (approve a code, trade it). */
async function desktopToken(t: TestApp, cookie: string): Promise<string> {
  const approved = await t.app.inject({
    method: 'POST',
    url: '/api/desktop/approve',
    headers: { cookie, origin: ORIGIN },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const { code } = approved.json<{ code: string }>();
  const tokens = await t.app.inject({
    method: 'POST',
    url: '/api/desktop/token',
    payload: { code },
  });
  expect(tokens.statusCode, tokens.body).toBe(200);
  return tokens.json<{ access_token: string }>().access_token;
}

/** Requests as the desktop app or the CLI make them: a Bearer token, no cookie, no Origin. */
function bearer(t: TestApp, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: (url: string, extra: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers: { ...headers, ...extra } }),
    post: (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers }),
  };
}

describe('repository roles: owner, editor, commenter, viewer and non-member', () => {
  let c: RepoTestContext;
  afterEach(async () => {
    await c.t.close();
  });

  /** The owner's repository with a cover and a bounce, and one member of each role. */
  async function world() {
    c = await setupRepoTest();
    const { t } = c;
    const db = t.deps.database.db;
    const repo = await nightDrive(c);
    const bounce = await publishBounce(depsOf(t), repo.id, audio.wavA);
    expect((await sendCover(t, c.ownerCookie, repo.id)).statusCode).toBe(200);
    const member = async (role: MemberRole): Promise<Person> => {
      const user = await buildMember(db, { repoId: repo.id }, role);
      return { id: user.id, cookie: user.cookie, client: api(t, user.cookie) };
    };
    return {
      t,
      db,
      repo,
      bounce,
      owner: { id: c.ownerId, cookie: c.ownerCookie, client: c.owner } satisfies Person,
      editor: await member('editor'),
      commenter: await member('commenter'),
      viewer: await member('viewer'),
    };
  }

  it('every member reads the repository, its history and bounces and streams them; a non-member gets 404 for each', async () => {
    const w = await world();
    const { repo, bounce } = w;
    const reads = [
      `/api/repos/${repo.id}`,
      `/api/audio-git/repositories/${repo.id}`,
      `/api/audio-git/repositories/${repo.id}/patches`,
      `/api/repos/${repo.id}/branches`,
      `/api/repos/${repo.id}/commits`,
      `/api/repos/${repo.id}/bounces`,
      `/api/repos/${repo.id}/bounces/${bounce.id}`,
      `/api/repos/${repo.id}/bounces/${bounce.id}/stream`,
      `/api/repos/${repo.id}/bounces/${bounce.id}/stream?quality=high`,
      `/api/repos/${repo.id}/commits/${bounce.commit_sha}/bounces`,
      `/api/repos/${repo.id}/cover`,
    ];
    const people: [Role, Person][] = [
      ['owner', w.owner],
      ['editor', w.editor],
      ['commenter', w.commenter],
      ['viewer', w.viewer],
    ];
    for (const [role, person] of people) {
      for (const url of reads) {
        const response = await person.client.get(url);
        expect(response.statusCode, `${role} ${url}: ${response.body}`).toBe(200);
      }
      // The caller's own role comes back with the repository, on both paths.
      const one = (await person.client.get(`/api/repos/${repo.id}`)).json<{ repo: Repository }>();
      expect(one.repo.role, role).toBe(role);
      const desktop = (await person.client.get(`/api/audio-git/repositories/${repo.id}`)).json<{
        data: Repository;
      }>();
      expect(desktop.data.role, role).toBe(role);
      const ranged = await person.client.get(`/api/repos/${repo.id}/bounces/${bounce.id}/stream`, {
        range: 'bytes=0-99',
      });
      expect(ranged.statusCode, role).toBe(206);
      expect(
        (await person.client.get(`/api/repos/${repo.id}/bounces`)).json<{ bounces: Bounce[] }>()
          .bounces[0]?.id,
      ).toBe(bounce.id);
    }
    for (const url of reads) {
      const response = await c.stranger.get(url);
      expect(response.statusCode, `non-member ${url}`).toBe(404);
    }
  });

  it('Editor work (branches, commits, patches, publishing, the cover, deleting a bounce): editors may, commenters and viewers get 403, non-members 404', async () => {
    const w = await world();
    const { t, repo, bounce } = w;
    const writes = (who: string) => ({
      branch: (p: Client) => p.post(`/api/repos/${repo.id}/branches`, { name: `b-${who}` }),
      commit: (p: Client) =>
        p.post(`/api/repos/${repo.id}/commits`, { branch: 'main', message: `by ${who}` }),
      patch: (p: Client) =>
        p.post(`/api/audio-git/repositories/${repo.id}/patches`, { message: `by ${who}` }),
      publish: (p: Client) =>
        p.post('/api/bounces/publish', { repo_id: repo.id, branch: 'main', filename: 'Mix A.wav' }),
      complete: (p: Client) =>
        p.post('/api/bounces/complete', {
          repo_id: repo.id,
          branch: 'main',
          filename: 'Mix A.wav',
        }),
      deleteBounce: (p: Client) => p.delete(`/api/repos/${repo.id}/bounces/${bounce.id}`),
    });

    for (const [role, person] of [
      ['commenter', w.commenter],
      ['viewer', w.viewer],
    ] as const) {
      for (const [name, write] of Object.entries(writes(role))) {
        const response = await write(person.client);
        expect(response.statusCode, `${role} ${name}: ${response.body}`).toBe(403);
        expect(response.json(), `${role} ${name}`).toEqual({
          error: NEED_EDITOR,
          code: 'forbidden',
        });
      }
      const cover = await sendCover(t, person.cookie, repo.id);
      expect(cover.statusCode, role).toBe(403);
      expect(cover.json()).toEqual({ error: NEED_EDITOR, code: 'forbidden' });
    }
    for (const [name, write] of Object.entries(writes('stranger'))) {
      const response = await write(c.stranger);
      expect(response.statusCode, `non-member ${name}`).toBe(404);
      expect(response.json(), `non-member ${name}`).toEqual(REPO_NOT_FOUND);
    }
    // Nothing the refused made is there.
    const branches = (await w.owner.client.get(`/api/repos/${repo.id}/branches`)).json<{
      branches: { name: string }[];
    }>();
    expect(branches.branches.map((b) => b.name)).toEqual(['main']);
    expect(
      (await w.owner.client.get(`/api/repos/${repo.id}/bounces/${bounce.id}`)).statusCode,
    ).toBe(200);

    // An editor does all of it.
    const editor = w.editor.client;
    const editorWrites = writes('editor');
    expect((await editorWrites.branch(editor)).statusCode).toBe(201);
    expect((await editorWrites.commit(editor)).statusCode).toBe(201);
    expect((await editorWrites.patch(editor)).statusCode).toBe(201);
    const published = await publishFile(t, editor, repo.id, audio.wavB, { title: 'Editor mix' });
    expect(published).toMatchObject({ repo_id: repo.id, title: 'Editor mix', branch: 'main' });
    // Everyone on the repository hears the editor's bounce.
    expect(
      (await w.viewer.client.get(`/api/repos/${repo.id}/bounces/${published.id}`)).statusCode,
    ).toBe(200);
    const cover = await sendCover(t, w.editor.cookie, repo.id);
    expect(cover.statusCode, cover.body).toBe(200);
    expect((await editorWrites.deleteBounce(editor)).statusCode).toBe(204);
    expect((await w.owner.client.get(`/api/repos/${repo.id}/bounces/${bounce.id}`)).json()).toEqual(
      { error: 'Bounce not found', code: 'not_found' },
    );
    // Renaming and deleting stay the owner's, even for an editor.
    const rename = await editor.patch(`/api/repos/${repo.id}`, { name: 'Editor Name' });
    expect(rename.statusCode).toBe(403);
    expect(rename.json()).toEqual({ error: NEED_OWNER, code: 'forbidden' });
  });

  it('renaming and deleting a repository are the owner’s: editors and below get 403, non-members 404', async () => {
    const w = await world();
    const { repo } = w;
    for (const [role, person] of [
      ['editor', w.editor],
      ['commenter', w.commenter],
      ['viewer', w.viewer],
    ] as const) {
      const rename = await person.client.patch(`/api/repos/${repo.id}`, { name: `By ${role}` });
      expect(rename.statusCode, role).toBe(403);
      expect(rename.json()).toEqual({ error: NEED_OWNER, code: 'forbidden' });
      const remove = await person.client.delete(`/api/repos/${repo.id}`);
      expect(remove.statusCode, role).toBe(403);
      expect(remove.json()).toEqual({ error: NEED_OWNER, code: 'forbidden' });
    }
    expect((await c.stranger.patch(`/api/repos/${repo.id}`, { name: 'Mine' })).json()).toEqual(
      REPO_NOT_FOUND,
    );
    expect((await c.stranger.delete(`/api/repos/${repo.id}`)).statusCode).toBe(404);

    const renamed = await w.owner.client.patch(`/api/repos/${repo.id}`, { name: 'Night Ride' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<{ repo: Repository }>().repo).toMatchObject({
      name: 'Night Ride',
      role: 'owner',
    });
    // The members see the new name.
    expect(
      (await w.viewer.client.get(`/api/repos/${repo.id}`)).json<{ repo: Repository }>().repo.name,
    ).toBe('Night Ride');
    expect((await w.owner.client.delete(`/api/repos/${repo.id}`)).statusCode).toBe(204);
    for (const person of [w.owner, w.editor, w.viewer])
      expect((await person.client.get(`/api/repos/${repo.id}`)).statusCode).toBe(404);
  });

  it('a removed member is refused on their next request: their session, an open stream’s next Range request, their desktop token', async () => {
    const w = await world();
    const { t, db, repo, bounce } = w;
    const token = await desktopToken(t, w.editor.cookie);
    const cli = bearer(t, token);
    const stream = `/api/repos/${repo.id}/bounces/${bounce.id}/stream`;

    // Before: the viewer streams, the editor's CLI reads and starts a publish.
    expect((await w.viewer.client.get(stream, { range: 'bytes=0-99' })).statusCode).toBe(206);
    expect((await cli.get(`/api/audio-git/repositories/${repo.id}`)).statusCode).toBe(200);
    expect(
      (await cli.get('/api/audio-git/repositories')).json<{ data: Repository[] }>().data,
    ).toMatchObject([{ id: repo.id, role: 'editor' }]);
    expect((await cli.get(`/api/repos/${repo.id}/commits`)).statusCode).toBe(200);
    expect(
      (
        await cli.post('/api/bounces/publish', {
          repo_id: repo.id,
          branch: 'main',
          filename: 'Mix B.wav',
        })
      ).statusCode,
    ).toBe(201);

    await db
      .deleteFrom('repo_members')
      .where('repo_id', '=', repo.id)
      .where('user_id', 'in', [w.viewer.id, w.editor.id])
      .execute();

    // The stream's next range, and anything else, answers as a missing repository.
    const next = await w.viewer.client.get(stream, { range: 'bytes=100-199' });
    expect(next.statusCode).toBe(404);
    expect(next.json()).toEqual(REPO_NOT_FOUND);
    expect((await w.viewer.client.get(`/api/repos/${repo.id}`)).json()).toEqual(REPO_NOT_FOUND);
    expect((await w.editor.client.get(`/api/repos/${repo.id}/bounces`)).statusCode).toBe(404);
    // The desktop token still signs them in, but the repository is gone for them.
    expect((await cli.get('/api/auth/session')).statusCode).toBe(200);
    expect((await cli.get(`/api/audio-git/repositories/${repo.id}`)).json()).toEqual(
      REPO_NOT_FOUND,
    );
    expect((await cli.get(`/api/audio-git/repositories/${repo.id}/patches`)).statusCode).toBe(404);
    expect((await cli.get(`/api/repos/${repo.id}/commits`)).statusCode).toBe(404);
    expect((await cli.get(stream)).statusCode).toBe(404);
    expect((await cli.get('/api/audio-git/repositories')).json()).toEqual({ data: [] });
    const publish = await cli.post('/api/bounces/publish', {
      repo_id: repo.id,
      branch: 'main',
      filename: 'Mix B.wav',
    });
    expect(publish.statusCode).toBe(404);
    expect(publish.json()).toEqual(REPO_NOT_FOUND);
    const commit = await cli.post(`/api/repos/${repo.id}/commits`, {
      branch: 'main',
      message: 'after removal',
    });
    expect(commit.statusCode).toBe(404);
    // The others are untouched.
    expect((await w.commenter.client.get(stream, { range: 'bytes=0-99' })).statusCode).toBe(206);
  });

  it('a publish is checked again at the PUT and at complete: removed or made Viewer meanwhile is refused, and an upload is only its starter’s', async () => {
    const w = await world();
    const { t, db, repo } = w;
    const content = fs.readFileSync(audio.wavB);
    const start = async (person: Client) => {
      const response = await person.post('/api/bounces/publish', {
        repo_id: repo.id,
        branch: 'main',
        filename: 'Mix B.wav',
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<PublishResponse>();
    };
    const complete = (person: Client, uploadId: string) =>
      person.post('/api/bounces/complete', {
        repo_id: repo.id,
        branch: 'main',
        filename: 'Mix B.wav',
        size: content.length,
        upload_id: uploadId,
      });
    const setRole = (userId: string, role: MemberRole | null) =>
      role
        ? db
            .updateTable('repo_members')
            .set({ role })
            .where('repo_id', '=', repo.id)
            .where('user_id', '=', userId)
            .execute()
        : db
            .deleteFrom('repo_members')
            .where('repo_id', '=', repo.id)
            .where('user_id', '=', userId)
            .execute();
    const bounceCount = async () =>
      (await w.owner.client.get(`/api/repos/${repo.id}/bounces`)).json<{ bounces: Bounce[] }>()
        .bounces.length;
    expect(await bounceCount()).toBe(1);

    // Removed between the PUT and complete.
    const removed = await buildMember(db, { repoId: repo.id }, 'editor');
    const removedClient = api(t, removed.cookie);
    const first = await start(removedClient);
    expect((await putUpload(t, first.upload_url, content, first.upload_token)).statusCode).toBe(
      200,
    );
    await setRole(removed.id, null);
    const refused = await complete(removedClient, first.upload_id);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual(REPO_NOT_FOUND);

    // Made Viewer between the PUT and complete.
    const demoted = await buildMember(db, { repoId: repo.id }, 'editor');
    const demotedClient = api(t, demoted.cookie);
    const second = await start(demotedClient);
    expect((await putUpload(t, second.upload_url, content, second.upload_token)).statusCode).toBe(
      200,
    );
    await setRole(demoted.id, 'viewer');
    const tooLow = await complete(demotedClient, second.upload_id);
    expect(tooLow.statusCode).toBe(403);
    expect(tooLow.json()).toEqual({ error: NEED_EDITOR, code: 'forbidden' });
    // Made Editor again, they finish their own publish.
    await setRole(demoted.id, 'editor');
    const done = await complete(demotedClient, second.upload_id);
    expect(done.statusCode, done.body).toBe(201);
    expect(await bounceCount()).toBe(2);

    // Removed before the PUT: the token no longer takes the file.
    const early = await start(w.editor.client);
    await setRole(w.editor.id, null);
    const put = await putUpload(t, early.upload_url, content, early.upload_token);
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual(REPO_NOT_FOUND);

    // Another person's upload cannot be completed, even by the owner.
    const other = await buildMember(db, { repoId: repo.id }, 'editor');
    const otherClient = api(t, other.cookie);
    const third = await start(otherClient);
    expect((await putUpload(t, third.upload_url, content, third.upload_token)).statusCode).toBe(
      200,
    );
    const notTheirs = await complete(w.owner.client, third.upload_id);
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json()).toEqual({ error: REPO_MESSAGES.uploadNotFound, code: 'not_found' });
    expect((await complete(otherClient, third.upload_id)).statusCode).toBe(201);
    expect(await bounceCount()).toBe(3);
  });

  it('lists: a member sees shared repositories with their role beside their own (same names allowed) and their bounces and shared projects’ versions in the recent feed; once removed, neither', async () => {
    c = await setupRepoTest();
    const { t, ownerId } = c;
    const db = t.deps.database.db;
    const at = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
    const shared = await nightDrive(c);
    const sharedBounce = await publishBounce(depsOf(t), shared.id, audio.wavA, {
      overrides: { title: 'Shared mix', created_at: at(1) },
    });
    const { project, branch } = await buildProject(db, ownerId, { name: 'Shared Project' });
    const sharedVersion = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { overrides: { file_url: 'https://cdn.example.test/take.mp3', created_at: at(2) } },
    );
    // Not shared with the member: stays out of their lists.
    const unshared = await buildRepo(db, ownerId, { name: 'Private Sketches' });
    await publishBounce(depsOf(t), unshared.id, audio.wavB, { overrides: { created_at: at(3) } });

    const member = await buildMember(db, { repoId: shared.id }, 'viewer');
    await addMember(db, { projectId: project.id }, member.id, 'commenter');
    const memberClient = api(t, member.cookie);
    // The member's own repository has the same name as the shared one: fine, two owners.
    const own = await memberClient.post('/api/repos', { name: 'Night Drive' });
    expect(own.statusCode, own.body).toBe(201);
    const ownRepo = own.json<{ repo: Repository }>().repo;
    expect(ownRepo.role).toBe('owner');
    const ownBounce = await publishBounce(depsOf(t), ownRepo.id, audio.wavB, {
      overrides: { title: 'Own mix', created_at: at(0) },
    });

    const list = async () =>
      (await memberClient.get('/api/audio-git/repositories'))
        .json<{ data: Repository[] }>()
        .data.map((r) => ({ id: r.id, name: r.name, role: r.role }))
        .sort((a, b) => a.role.localeCompare(b.role));
    expect(await list()).toEqual([
      { id: ownRepo.id, name: 'Night Drive', role: 'owner' },
      { id: shared.id, name: 'Night Drive', role: 'viewer' },
    ]);
    // The owner's list is theirs with their role.
    const ownerList = (await c.owner.get('/api/audio-git/repositories')).json<{
      data: Repository[];
    }>().data;
    expect(ownerList.map((r) => [r.id, r.role]).sort()).toEqual(
      [
        [shared.id, 'owner'],
        [unshared.id, 'owner'],
      ].sort(),
    );

    const feed = async (all: boolean) =>
      (await memberClient.get(`/api/bounces/recent?limit=50${all ? '&all=true' : ''}`)).json<{
        bounces: RecentBounce[];
      }>().bounces;
    expect((await feed(false)).map((b) => b.id)).toEqual([sharedBounce.id, ownBounce.id]);
    expect((await feed(true)).map((b) => [b.kind, b.id])).toEqual([
      ['version', sharedVersion.id],
      ['bounce', sharedBounce.id],
      ['bounce', ownBounce.id],
    ]);
    expect((await feed(false))[0]).toMatchObject({ repo_id: shared.id, title: 'Shared mix' });

    await db.deleteFrom('repo_members').where('user_id', '=', member.id).execute();
    await db.deleteFrom('project_members').where('user_id', '=', member.id).execute();
    expect(await list()).toEqual([{ id: ownRepo.id, name: 'Night Drive', role: 'owner' }]);
    expect((await feed(true)).map((b) => b.id)).toEqual([ownBounce.id]);
  });
});
