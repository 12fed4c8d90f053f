import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuestFilesResponse, GuestUploadPage, UploadLink } from '@takes/contract';
import type { MailMessage, Mailer } from '../../mail/mailer';
import { api, eventually, ORIGIN } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import type { TestApp } from '../../../test/test-app';
import { guestTus, listening } from '../../../test/tus-client';

describe('file requests: upload links, guests sending files, the team adding or declining them', () => {
  let t: TestApp;
  let base: string;
  let dir: string;
  let wav: Buffer;
  let otherWav: Buffer;
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
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-guest-'));
    wav = fs.readFileSync(await makeAudio(dir, 'wav', 1, 'take.wav'));
    otherWav = fs.readFileSync(await makeAudio(dir, 'wav', 2, 'other.wav'));
    ({ t, base } = await listening({ mailer }));
    await t.deps.jobs.startWorking();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const db = () => t.deps.database.db;

  /** An owner's project with one version (Version 1 of main), an editor and a viewer. */
  async function team() {
    const owner = await buildUser(db());
    const { project, branch } = await buildProject(db(), owner.id, { name: 'Night Drive' });
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: path.join(dir, 'take.wav'), overrides: { message: 'Secret rough mix' } },
    );
    const editor = await buildMember(db(), { projectId: project.id }, 'editor');
    const commenter = await buildMember(db(), { projectId: project.id }, 'commenter');
    const viewer = await buildMember(db(), { projectId: project.id }, 'viewer');
    const stranger = await buildUser(db());
    return { owner, editor, commenter, viewer, stranger, project, branch, version };
  }

  async function makeLink(cookie: string, projectId: string, body: object): Promise<UploadLink> {
    const response = await api(t, cookie).post(`/api/projects/${projectId}/upload-links`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<UploadLink>();
  }
  const keyOf = (link: UploadLink) => link.url.split('/upload/')[1] as string;

  /** Sends a whole file through the link as a guest: the create, then one PATCH. */
  async function send(key: string, file: Buffer, cookie = '', name = 'Sam Session') {
    const client = guestTus(base, cookie);
    const created = await client.create(file.length, {
      upload_link: key,
      filename: '../../etc/Bass take.wav',
      guest_name: name,
      guest_email: 'sam@example.test',
    });
    if (created.status !== 201) return created;
    return client.patch(created.headers.get('location') as string, 0, file);
  }

  it('lets an Owner or Editor make an upload link, refuses a Viewer (403) and a stranger (404)', async () => {
    const w = await team();
    const body = { branch_id: w.branch.id, name: 'Bass takes' };
    const link = await makeLink(w.editor.cookie, w.project.id, body);
    expect(link).toMatchObject({ name: 'Bass takes', max_files: 10, has_password: false });
    for (const [user, status] of [
      [w.viewer, 403],
      [w.commenter, 403],
      [w.stranger, 404],
    ] as const) {
      const r = await api(t, user.cookie).post(`/api/projects/${w.project.id}/upload-links`, body);
      expect(r.statusCode, r.body).toBe(status);
    }
    const weak = await api(t, w.owner.cookie).post(`/api/projects/${w.project.id}/upload-links`, {
      ...body,
      password: 'short',
    });
    expect(weak.statusCode).toBe(400);
  });

  it('takes a guest’s files through the resumable path behind the password, keeps them out of the numbered versions and lets the team add one as Version 2', async () => {
    const w = await team();
    const link = await makeLink(w.owner.cookie, w.project.id, {
      branch_id: w.branch.id,
      name: 'Bass takes',
      message: 'Send your best take',
      password: 'violet-mixdown-47',
    });
    const key = keyOf(link);
    const locked = await fetch(`${base}/api/upload/${key}`, { headers: { origin: ORIGIN } });
    expect(locked.status).toBe(401);
    expect((await send(key, wav)).status).toBe(401);
    const unlocked = await fetch(`${base}/api/upload/${key}/unlock`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'violet-mixdown-47' }),
    });
    expect(unlocked.status).toBe(204);
    const cookie = (unlocked.headers.get('set-cookie') ?? '').split(';')[0] as string;

    // The guest's page says the link's own words and nothing of the project.
    const page = await fetch(`${base}/api/upload/${key}`, { headers: { origin: ORIGIN, cookie } });
    const text = await page.text();
    expect(JSON.parse(text) as GuestUploadPage).toMatchObject({
      name: 'Bass takes',
      message: 'Send your best take',
      files_left: 10,
    });
    for (const secret of ['Night Drive', 'Secret rough mix', w.project.id, w.branch.id, 'main'])
      expect(text).not.toContain(secret);

    const finished = await send(key, wav, cookie);
    expect(finished.status, await finished.clone().text()).toBe(200);
    expect((await send(key, otherWav, cookie, 'Alex')).status).toBe(200);

    const list = async (cookieOf: string) =>
      api(t, cookieOf).get(`/api/projects/${w.project.id}/guest-files?branch_id=${w.branch.id}`);
    let files: GuestFilesResponse = (await list(w.viewer.cookie)).json();
    expect(files.next_version_number).toBe(2);
    expect(files.files.map((f) => f.sent_by).sort()).toEqual([
      'Sent by Alex via Bass takes',
      'Sent by Sam Session via Bass takes',
    ]);
    // The name is the file's own, never a path; the address only for whoever may accept.
    expect(files.files.every((f) => f.file_name === 'Bass take.wav')).toBe(true);
    expect(files.files.every((f) => f.guest_email === null)).toBe(true);
    expect((await list(w.stranger.cookie)).statusCode).toBe(404);

    // Not a version: the branch still has one, numbered 1.
    const versions = await api(t, w.owner.cookie).get(
      `/api/versions/project/${w.project.id}/branch/${w.branch.id}`,
    );
    expect(versions.json<unknown[]>()).toHaveLength(1);
    const branch = await db()
      .selectFrom('branches')
      .select('version_count')
      .where('id', '=', w.branch.id)
      .executeTakeFirstOrThrow();
    expect(Number(branch.version_count)).toBe(1);

    // Nor anything a version's routes know: its id is no version's until it is added.
    const pendingId = (await list(w.owner.cookie)).json<GuestFilesResponse>().files[0]?.id ?? '';
    expect((await api(t, w.owner.cookie).get(`/api/versions/${pendingId}`)).statusCode).toBe(404);
    expect(
      (await api(t, w.owner.cookie).get(`/api/versions/${pendingId}/comments`)).statusCode,
    ).toBe(404);

    // The team hears of it, and may play it once processed.
    const notes = await api(t, w.owner.cookie).get('/api/notifications');
    expect(JSON.stringify(notes.json())).toContain("via the upload link 'Bass takes'");
    await eventually(async () => {
      files = (await list(w.owner.cookie)).json();
      return files.files.every((f) => f.status === 'completed');
    });
    const sam = files.files.find((f) => f.guest_name === 'Sam Session');
    const alex = files.files.find((f) => f.guest_name === 'Alex');
    if (!sam || !alex) throw new Error('files missing');
    expect(sam.guest_email).toBe('sam@example.test');
    expect((await api(t, w.viewer.cookie).get(sam.stream_url)).statusCode).toBe(200);
    expect((await api(t, w.stranger.cookie).get(sam.stream_url)).statusCode).toBe(404);

    // A Viewer may not decide; an Editor adds it as Version 2 with a message.
    expect(
      (await api(t, w.viewer.cookie).post(`/api/guest-files/${sam.id}/accept`)).statusCode,
    ).toBe(403);
    const accepted = await api(t, w.editor.cookie).post(`/api/guest-files/${sam.id}/accept`, {
      message: 'Bass from Sam',
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({ version_number: 2, version_id: sam.id });
    const after = await api(t, w.owner.cookie).get(`/api/versions/${sam.id}`);
    expect(after.json()).toMatchObject({ version_number: 2, message: 'Bass from Sam' });
    expect(
      (await api(t, w.owner.cookie).get(`/api/versions/${sam.id}/stream?quality=high`)).statusCode,
    ).toBe(200);
    expect(sent.filter((m) => m.to === 'sam@example.test')).toHaveLength(1);
    expect(sent.find((m) => m.to === 'sam@example.test')?.text).not.toContain('Night Drive');

    // Declined: gone with its renditions and (used by nothing else) its original.
    const alexRow = await db()
      .selectFrom('guest_files')
      .selectAll()
      .where('id', '=', alex.id)
      .executeTakeFirstOrThrow();
    const declined = await api(t, w.owner.cookie).delete(`/api/guest-files/${alex.id}`);
    expect(declined.statusCode).toBe(204);
    await eventually(async () => (await t.deps.storage.head(alexRow.original_key)) === null);
    files = (await list(w.owner.cookie)).json();
    expect(files.files).toEqual([]);
    expect(files.next_version_number).toBe(3);
  }, 120_000);

  it('keeps a declined file’s original when a version uses the same audio', async () => {
    const w = await team();
    const link = await makeLink(w.owner.cookie, w.project.id, {
      branch_id: w.branch.id,
      name: 'L',
    });
    expect((await send(keyOf(link), wav)).status).toBe(200);
    const row = await db()
      .selectFrom('guest_files')
      .selectAll()
      .where('link_id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(row.original_key).toBe(w.version.original_key);
    await eventually(async () => {
      const r = await db()
        .selectFrom('guest_files')
        .select('status')
        .where('id', '=', row.id)
        .executeTakeFirst();
      return r?.status === 'completed';
    });
    expect((await api(t, w.owner.cookie).delete(`/api/guest-files/${row.id}`)).statusCode).toBe(
      204,
    );
    await eventually(async () => {
      const left = await db().selectFrom('storage_cleanup').select('id').execute();
      return left.length === 0;
    });
    expect(await t.deps.storage.head(row.original_key)).not.toBeNull();
  }, 60_000);

  it('refuses what is not audio by its content, whatever its name, and keeps nothing', async () => {
    const w = await team();
    const link = await makeLink(w.owner.cookie, w.project.id, {
      branch_id: w.branch.id,
      name: 'L',
    });
    const fake = Buffer.from('RIFF this is not a wave file at all '.repeat(40));
    const answer = await send(keyOf(link), fake);
    expect(answer.status).toBe(415);
    expect(JSON.parse(await answer.text())).toMatchObject({ code: 'unsupported' });
    expect(
      await db().selectFrom('guest_files').select('id').where('link_id', '=', link.id).execute(),
    ).toEqual([]);
  });

  it('holds the link’s file limit when creations arrive at once, and its byte limit before any byte', async () => {
    const w = await team();
    const link = await makeLink(w.owner.cookie, w.project.id, {
      branch_id: w.branch.id,
      name: 'Two only',
      max_files: 2,
      max_bytes: 2 * 1024 * 1024,
    });
    const client = guestTus(base);
    const meta = { upload_link: keyOf(link), filename: 'a.wav', guest_name: 'Sam' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.create(1000, meta)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 429, 429, 429]);
    const refused = answers.find((a) => a.status === 429);
    expect(JSON.parse((await refused?.text()) ?? '{}')).toMatchObject({
      error: 'This link has taken all the files it can. Ask for a new link to send more.',
    });

    const bytes = await makeLink(w.owner.cookie, w.project.id, {
      branch_id: w.branch.id,
      name: 'Small',
      max_bytes: 1024 * 1024,
    });
    const big = await client.create(1024 * 1024 + 1, { ...meta, upload_link: keyOf(bytes) });
    expect(big.status).toBe(413);

    // While streaming: never past the declared length.
    const created = await client.create(10, { ...meta, upload_link: keyOf(bytes) });
    expect(created.status).toBe(201);
    const over = await client.patch(created.headers.get('location') as string, 0, Buffer.alloc(64));
    expect(over.status).toBeGreaterThanOrEqual(400);
    expect(
      await db().selectFrom('guest_files').select('id').where('link_id', '=', bytes.id).execute(),
    ).toEqual([]);
  });

  it('stops a revoked link’s page and its unfinished uploads, and refuses a guest without a name', async () => {
    const w = await team();
    const link = await makeLink(w.owner.cookie, w.project.id, {
      branch_id: w.branch.id,
      name: 'L',
    });
    const client = guestTus(base);
    const nameless = await client.create(wav.length, {
      upload_link: keyOf(link),
      filename: 'a.wav',
      guest_name: ' ',
    });
    expect(nameless.status).toBe(400);
    const created = await client.create(wav.length, {
      upload_link: keyOf(link),
      filename: 'a.wav',
      guest_name: 'Sam',
    });
    expect(created.status).toBe(201);
    expect((await api(t, w.viewer.cookie).delete(`/api/upload-links/${link.id}`)).statusCode).toBe(
      403,
    );
    expect((await api(t, w.owner.cookie).delete(`/api/upload-links/${link.id}`)).statusCode).toBe(
      204,
    );
    expect((await fetch(`${base}/api/upload/${keyOf(link)}`)).status).toBe(404);
    const patched = await client.patch(created.headers.get('location') as string, 0, wav);
    expect(patched.status).toBe(404);
    expect(
      await db().selectFrom('guest_files').select('id').where('link_id', '=', link.id).execute(),
    ).toEqual([]);
  });

  it('counts each address’s files an hour, whatever the link, and says when a link has expired', async () => {
    const w = await team();
    const link = await makeLink(w.owner.cookie, w.project.id, {
      branch_id: w.branch.id,
      name: 'Many',
      max_files: 50,
    });
    // Every request of this file comes from one address (127.0.0.1): at most 20 files an hour.
    const client = guestTus(base);
    const meta = { upload_link: keyOf(link), filename: 'a.wav', guest_name: 'Sam' };
    const tooMany = 'Too many files sent for now. Please wait a while and try again.';
    let refused: string | undefined;
    for (let i = 0; i <= 20 && refused === undefined; i++) {
      const answer = await client.create(1000, meta);
      const text = answer.status === 429 ? await answer.text() : '';
      if (text.includes(tooMany)) refused = text;
    }
    expect(refused).toBeDefined();
    // Whatever the link.
    const other = await makeLink(w.owner.cookie, w.project.id, {
      branch_id: w.branch.id,
      name: 'B',
    });
    const again = await client.create(1000, { ...meta, upload_link: keyOf(other) });
    expect(again.status).toBe(429);
    expect(await again.text()).toContain(tooMany);

    await db()
      .updateTable('upload_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', link.id)
      .execute();
    const page = await fetch(`${base}/api/upload/${keyOf(link)}`, { headers: { origin: ORIGIN } });
    expect(page.status).toBe(410);
    expect(JSON.parse(await page.text())).toMatchObject({ code: 'link_expired' });
  });
});
