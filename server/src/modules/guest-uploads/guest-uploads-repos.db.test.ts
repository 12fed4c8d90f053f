import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bounce, GuestFilesResponse, UploadLink, UploadLinksResponse } from '@takes/contract';
import type { MailMessage, Mailer } from '../../mail/mailer';
import { api, eventually, ORIGIN } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { buildMember, buildRepo, buildUser, depsOf, publishBounce } from '../../../test/factories';
import type { TestApp } from '../../../test/test-app';
import { guestTus, listening } from '../../../test/tus-client';

describe("file requests for a repository: guests' files added as bounces or declined", () => {
  let t: TestApp;
  let base: string;
  let dir: string;
  let wav: Buffer;
  let otherWav: Buffer;
  let thirdWav: Buffer;
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    kind: 'log',
    send: (message) => {
      sent.push(message);
      return Promise.resolve();
    },
    close: () => {},
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-guest-repo-'));
    wav = fs.readFileSync(await makeAudio(dir, 'wav', 1, 'mix.wav'));
    otherWav = fs.readFileSync(await makeAudio(dir, 'wav', 2, 'other.wav'));
    thirdWav = fs.readFileSync(await makeAudio(dir, 'wav', 3, 'third.wav'));
    ({ t, base } = await listening({ mailer }));
    await t.deps.jobs.startWorking();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const db = () => t.deps.database.db;

  /** An owner's repository 'Midnight Stems' with one bounce on main, an editor and a viewer. */
  async function team() {
    const owner = await buildUser(db());
    const repo = await buildRepo(db(), owner.id, { name: 'Midnight Stems' });
    const bounce = await publishBounce(depsOf(t), repo.id, path.join(dir, 'mix.wav'));
    const editor = await buildMember(db(), { repoId: repo.id }, 'editor');
    const commenter = await buildMember(db(), { repoId: repo.id }, 'commenter');
    const viewer = await buildMember(db(), { repoId: repo.id }, 'viewer');
    const stranger = await buildUser(db());
    return { owner, editor, commenter, viewer, stranger, repo, bounce };
  }

  const linksOf = (repoId: string) => `/api/repos/${repoId}/upload-links`;
  async function makeLink(cookie: string, repoId: string, body: object): Promise<UploadLink> {
    const response = await api(t, cookie).post(linksOf(repoId), body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<UploadLink>();
  }
  const keyOf = (link: UploadLink) => link.url.split('/upload/')[1] as string;

  /** Sends a whole file through the link as a guest: the create, then one PATCH. */
  async function send(key: string, file: Buffer, name = 'Mo Mastering', fileName = 'Master.wav') {
    const client = guestTus(base);
    const created = await client.create(file.length, {
      upload_link: key,
      filename: fileName,
      guest_name: name,
      guest_email: 'mo@example.test',
    });
    if (created.status !== 201) return created;
    return client.patch(created.headers.get('location') as string, 0, file);
  }

  const filesOf = (cookie: string, repoId: string) =>
    api(t, cookie).get(`/api/repos/${repoId}/guest-files?branch=main`);
  const bouncesOf = async (cookie: string, repoId: string) =>
    (await api(t, cookie).get(`/api/repos/${repoId}/bounces?branch=main`)).json<{
      bounces: Bounce[];
    }>().bounces;

  async function processedFiles(cookie: string, repoId: string) {
    let files: GuestFilesResponse = { files: [], next_version_number: null };
    await eventually(async () => {
      files = (await filesOf(cookie, repoId)).json();
      return files.files.length > 0 && files.files.every((f) => f.status === 'completed');
    });
    return files.files;
  }

  it('lets an Owner or Editor make a link for a branch; a Viewer or Commenter gets 403, a stranger 404', async () => {
    const w = await team();
    const body = { branch: 'main', name: 'Masters' };
    const link = await makeLink(w.editor.cookie, w.repo.id, body);
    expect(link).toMatchObject({
      repo_id: w.repo.id,
      project_id: null,
      branch_name: 'main',
      name: 'Masters',
      max_files: 10,
    });
    for (const [user, status] of [
      [w.viewer, 403],
      [w.commenter, 403],
      [w.stranger, 404],
    ] as const) {
      const made = await api(t, user.cookie).post(linksOf(w.repo.id), body);
      expect(made.statusCode, made.body).toBe(status);
      expect((await api(t, user.cookie).get(linksOf(w.repo.id))).statusCode).toBe(status);
    }
    const noBranch = await api(t, w.owner.cookie).post(linksOf(w.repo.id), {
      ...body,
      branch: 'nowhere',
    });
    expect(noBranch.statusCode).toBe(404);
    const listed = (
      await api(t, w.owner.cookie).get(linksOf(w.repo.id))
    ).json<UploadLinksResponse>();
    expect(listed.links.map((l) => l.id)).toEqual([link.id]);

    // Revoked by whoever may publish: not a Viewer, not a stranger.
    expect((await api(t, w.viewer.cookie).delete(`/api/upload-links/${link.id}`)).statusCode).toBe(
      403,
    );
    expect(
      (await api(t, w.stranger.cookie).delete(`/api/upload-links/${link.id}`)).statusCode,
    ).toBe(404);
    expect((await api(t, w.editor.cookie).delete(`/api/upload-links/${link.id}`)).statusCode).toBe(
      204,
    );
    expect((await fetch(`${base}/api/upload/${keyOf(link)}`)).status).toBe(404);
  });

  it('takes a guest’s file through the resumable path, keeps it out of the bounces, and adds it as a bounce of the branch', async () => {
    const w = await team();
    const link = await makeLink(w.owner.cookie, w.repo.id, {
      branch: 'main',
      name: 'Masters',
      message: 'Send the master here',
    });
    const key = keyOf(link);

    // The guest's page says the link's own words and nothing of the repository.
    const page = await fetch(`${base}/api/upload/${key}`, { headers: { origin: ORIGIN } });
    const text = await page.text();
    expect(page.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ name: 'Masters', message: 'Send the master here' });
    for (const secret of ['Midnight Stems', w.repo.id, 'main', w.bounce.title])
      expect(text).not.toContain(secret);

    expect((await send(key, otherWav)).status).toBe(200);
    expect((await send(key, thirdWav, 'Alex', 'Alt.wav')).status).toBe(200);

    // Listed for the repository's members (the address only for whoever may publish) ...
    const files = await processedFiles(w.owner.cookie, w.repo.id);
    expect(files.map((f) => f.sent_by).sort()).toEqual([
      'Sent by Alex via Masters',
      'Sent by Mo Mastering via Masters',
    ]);
    expect(files.every((f) => f.repo_id === w.repo.id && f.project_id === null)).toBe(true);
    const viewerList = (await filesOf(w.viewer.cookie, w.repo.id)).json<GuestFilesResponse>();
    expect(viewerList.files.every((f) => f.guest_email === null)).toBe(true);
    expect(viewerList.next_version_number).toBeNull();
    expect((await filesOf(w.stranger.cookie, w.repo.id)).statusCode).toBe(404);

    // ... and in no list of bounces, nor a bounce's routes.
    expect((await bouncesOf(w.owner.cookie, w.repo.id)).map((b) => b.id)).toEqual([w.bounce.id]);
    const mo = files.find((f) => f.guest_name === 'Mo Mastering');
    const alex = files.find((f) => f.guest_name === 'Alex');
    if (!mo || !alex) throw new Error('files missing');
    expect(mo.guest_email).toBe('mo@example.test');
    expect(
      (await api(t, w.owner.cookie).get(`/api/repos/${w.repo.id}/bounces/${mo.id}`)).statusCode,
    ).toBe(404);

    // The team hears of it; members play it.
    const notes = await api(t, w.editor.cookie).get('/api/notifications');
    expect(JSON.stringify(notes.json())).toContain("via the upload link 'Masters'");
    expect((await api(t, w.viewer.cookie).get(mo.stream_url)).statusCode).toBe(200);
    expect((await api(t, w.stranger.cookie).get(mo.stream_url)).statusCode).toBe(404);

    // A Viewer may not decide; an Editor adds it as a bounce of main.
    const accept = `/api/guest-files/${mo.id}/accept`;
    expect((await api(t, w.viewer.cookie).post(accept, {})).statusCode).toBe(403);
    expect((await api(t, w.stranger.cookie).post(accept, {})).statusCode).toBe(404);
    const accepted = await api(t, w.editor.cookie).post(accept, { title: 'Final master' });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toEqual({
      bounce_id: mo.id,
      repo_id: w.repo.id,
      branch: 'main',
      title: 'Final master',
    });
    const bounces = await bouncesOf(w.owner.cookie, w.repo.id);
    expect(bounces.map((b) => b.id).sort()).toEqual([w.bounce.id, mo.id].sort());
    expect(bounces.find((b) => b.id === mo.id)).toMatchObject({
      title: 'Final master',
      status: 'completed',
      branch: 'main',
      commit_sha: w.bounce.commit_sha,
    });
    const stream = await api(t, w.viewer.cookie).get(
      `/api/repos/${w.repo.id}/bounces/${mo.id}/stream?quality=high`,
    );
    expect(stream.statusCode).toBe(200);
    const published = await db()
      .selectFrom('activity')
      .selectAll()
      .where('repo_id', '=', w.repo.id)
      .where('kind', '=', 'bounce.published')
      .execute();
    expect(published.map((a) => a.actor_name)).toEqual(['Mo Mastering']);
    expect(sent.filter((m) => m.to === 'mo@example.test')).toHaveLength(1);
    expect(sent.find((m) => m.to === 'mo@example.test')?.text).not.toContain('Midnight Stems');

    // Declined: gone with its renditions and (used by nothing else) its original.
    const alexRow = await db()
      .selectFrom('guest_files')
      .selectAll()
      .where('id', '=', alex.id)
      .executeTakeFirstOrThrow();
    expect((await api(t, w.viewer.cookie).delete(`/api/guest-files/${alex.id}`)).statusCode).toBe(
      403,
    );
    expect((await api(t, w.owner.cookie).delete(`/api/guest-files/${alex.id}`)).statusCode).toBe(
      204,
    );
    await eventually(async () => (await t.deps.storage.head(alexRow.original_key)) === null);
    expect((await filesOf(w.owner.cookie, w.repo.id)).json<GuestFilesResponse>().files).toEqual([]);
    expect(await bouncesOf(w.owner.cookie, w.repo.id)).toHaveLength(2);
  }, 120_000);

  it('keeps a declined file’s original when a bounce uses the same audio', async () => {
    const w = await team();
    const link = await makeLink(w.owner.cookie, w.repo.id, { branch: 'main', name: 'L' });
    expect((await send(keyOf(link), wav)).status).toBe(200);
    const [file] = await processedFiles(w.owner.cookie, w.repo.id);
    if (!file) throw new Error('file missing');
    expect((await api(t, w.owner.cookie).delete(`/api/guest-files/${file.id}`)).statusCode).toBe(
      204,
    );
    await eventually(async () => {
      const left = await db().selectFrom('storage_cleanup').select('id').execute();
      return left.length === 0;
    });
    expect(await t.deps.storage.head(w.bounce.original_key)).not.toBeNull();
  }, 60_000);

  it('takes the waiting files’ audio with a deleted repository', async () => {
    const w = await team();
    const link = await makeLink(w.owner.cookie, w.repo.id, { branch: 'main', name: 'L' });
    expect((await send(keyOf(link), thirdWav)).status).toBe(200);
    const [file] = await processedFiles(w.owner.cookie, w.repo.id);
    if (!file) throw new Error('file missing');
    const row = await db()
      .selectFrom('guest_files')
      .selectAll()
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect((await api(t, w.owner.cookie).delete(`/api/repos/${w.repo.id}`)).statusCode).toBe(204);
    expect(
      await db().selectFrom('guest_files').select('id').where('id', '=', file.id).execute(),
    ).toEqual([]);
    await eventually(async () => (await t.deps.storage.head(row.original_key)) === null);
  }, 60_000);
});
