import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALIGNMENT_MESSAGES, type Comment, type VersionAlignment } from '@takes/contract';
import { SOURCES, mix, peakScale, sox, writeWav } from '../../../bench/alignment-set';
import { api, eventually } from '../../../test/api';
import { buildMember, buildProject, buildUser, type BuiltUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

// Comments that follow the music, through real processing and real alignment jobs: version 2
// cuts the first 2 s of version 1's intro, version 3 puts 1.5 s of silence in front of version 2.
describe('alignment of versions and comments that follow the music', () => {
  let dir: string;
  let t: TestApp;
  let owner: BuiltUser;
  let files: { v1: string; v2: string; v3: string };
  let target: { project_id: string; branch_id: string };
  const ids: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-align-'));
    const source = SOURCES[0];
    const signal = mix(source.make());
    const full = path.join(dir, 'full.wav');
    writeWav(full, signal, peakScale(signal));
    files = {
      v1: path.join(dir, 'Song v1.wav'),
      v2: path.join(dir, 'Song v2.wav'),
      v3: path.join(dir, 'Song v3.wav'),
    };
    sox(full, '-b', '16', files.v1, 'trim', '0', '40');
    sox(files.v1, files.v2, 'trim', '2');
    sox(files.v2, files.v3, 'pad', '1.5');
    t = await createTestApp();
    owner = await buildUser(t.deps.database.db, { name: 'Olivia Owner' });
    const { project, branch } = await buildProject(t.deps.database.db, owner.id);
    target = { project_id: project.id, branch_id: branch.id };
    await t.deps.jobs.startWorking();
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const as = (user: BuiltUser) => api(t, user.cookie);
  const upload = async (file: string) => {
    const response = await as(owner).upload(
      { path: file },
      { ...target, commit_message: path.basename(file) },
    );
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json<{ version_id: string }>().version_id;
    await eventually(
      async () =>
        (await as(owner).get(`/api/versions/${id}/processing`)).json<{ status: string }>()
          .status === 'completed',
      60_000,
    );
    return id;
  };
  const alignment = async (from: string, to: string, user = owner) => {
    const response = await as(user).get(`/api/versions/${from}/alignment?to=${to}`);
    return { status: response.statusCode, body: response.json<VersionAlignment>() };
  };
  const ready = async (from: string, to: string) => {
    await eventually(async () => (await alignment(from, to)).body.status !== 'pending', 60_000);
    return (await alignment(from, to)).body;
  };
  const comment = async (versionId: string, body: object) => {
    const response = await as(owner).post(`/api/versions/${versionId}/comments`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Comment>();
  };
  const near = (value: number | null | undefined, expected: number) => {
    expect(value).not.toBeNull();
    expect(Math.abs((value as number) - expected)).toBeLessThan(0.15);
  };

  it('aligns each new version with the one before it once processing completes', async () => {
    ids.push(await upload(files.v1));
    ids.push(await upload(files.v2));
    const [v1, v2] = ids as [string, string];
    // The job was queued by processing: asking finds it done or under way, never missing.
    const aligned = await ready(v1, v2);
    expect(aligned.status).toBe('ready');
    expect(aligned.confidence).toBeGreaterThan(0.3);
    // 10 s of version 1 is 8 s of version 2; its first 2 s have no counterpart.
    const segment = aligned.segments.find((s) => s.from_start <= 10 && s.from_end >= 10);
    expect(segment).toBeDefined();
    const share = (10 - segment!.from_start) / (segment!.from_end - segment!.from_start);
    near(segment!.to_start + share * (segment!.to_end - segment!.to_start), 8);
    expect(aligned.segments.every((s) => s.from_start >= 1.5)).toBe(true);
    // What changed: version 2 is version 1 without its intro, so nothing on version 2's
    // timeline; on version 1's, its first 2 s have no counterpart (inserted, seen from there).
    const changes = (await as(owner).get(`/api/versions/${v2}/changes?against=${v1}`)).json<{
      status: string;
      threshold_db: number;
      regions: { start: number; end: number; inserted: boolean }[];
    }>();
    expect(changes).toMatchObject({ status: 'ready', regions: [], error: null });
    expect(changes.threshold_db).toBeLessThan(0);
    const onOne = (await as(owner).get(`/api/versions/${v1}/changes?against=${v2}`)).json<{
      regions: { start: number; end: number; inserted: boolean }[];
    }>();
    expect(onOne.regions).toHaveLength(1);
    expect(onOne.regions[0]?.inserted).toBe(true);
    expect(onOne.regions[0]?.start).toBeLessThan(0.3);
    near(onOne.regions[0]?.end, 2);
    // The other way round reads the same map swapped.
    const back = (await alignment(v2, v1)).body;
    expect(back.status).toBe('ready');
    expect(back.segments).toEqual(
      aligned.segments.map((s) => ({
        from_start: s.to_start,
        from_end: s.to_end,
        to_start: s.from_start,
        to_end: s.from_end,
      })),
    );
  }, 120_000);

  it('carries open comments through two versions, reports removed passages and leaves resolved ones', async () => {
    const [v1, v2] = ids as [string, string];
    const chorus = await comment(v1, { content: 'Snare too loud here', timestamp: 20 });
    const passage = await comment(v1, {
      content: 'This build drags',
      timestamp: 12,
      end_timestamp: 16,
    });
    const intro = await comment(v1, { content: 'Nice intro pad', timestamp: 0.8 });
    const reply = await comment(v1, { content: 'Agreed', parent_id: chorus.id });
    const resolved = await comment(v1, { content: 'Fixed already', timestamp: 25 });
    expect(
      (await as(owner).patch(`/api/comments/${resolved.id}`, { resolved: true })).statusCode,
    ).toBe(200);
    const onTwo = await comment(v2, { content: 'Better now', timestamp: 5 });

    const v3 = await upload(files.v3);
    ids.push(v3);
    await ready(v2, v3);
    const listed = (await as(owner).get(`/api/versions/${v3}/comments?include=previous`)).json<
      Comment[]
    >();
    const byId = new Map(listed.map((c) => [c.id, c]));
    expect(byId.has(resolved.id)).toBe(false);

    // Version 1 at 20 s → version 2 at 18 s → version 3 at 19.5 s.
    const moved = byId.get(chorus.id)!;
    near(moved.timestamp, 19.5);
    expect(moved.carried).toMatchObject({
      from_version_number: 1,
      from_timestamp: 20,
      from_end_timestamp: null,
      status: 'moved',
      aligned: true,
    });
    const range = byId.get(passage.id)!;
    near(range.timestamp, 11.5);
    near(range.end_timestamp, 15.5);
    expect(range.carried).toMatchObject({ from_timestamp: 12, from_end_timestamp: 16 });
    expect(byId.get(intro.id)).toMatchObject({
      timestamp: null,
      end_timestamp: null,
      carried: { status: 'removed', from_timestamp: 0.8, from_version_number: 1 },
    });
    // The reply goes with its comment; version 2's comment moved one step.
    expect(byId.get(reply.id)?.carried).toMatchObject({ status: 'moved', from_version_number: 1 });
    near(byId.get(onTwo.id)?.timestamp, 6.5);
    expect(byId.get(onTwo.id)?.carried?.from_version_number).toBe(2);

    // The version's own comments are not carried; without include=previous nothing is.
    const own = await comment(v3, { content: 'Final check', timestamp: 3 });
    const again = (await as(owner).get(`/api/versions/${v3}/comments?include=previous`)).json<
      Comment[]
    >();
    expect(again.find((c) => c.id === own.id)?.carried).toBeNull();
    const plain = (await as(owner).get(`/api/versions/${v3}/comments`)).json<Comment[]>();
    expect(plain.map((c) => c.id)).toEqual([own.id]);

    // Replying to or resolving a carried comment acts on the original.
    const answer = await comment(v1, { content: 'Turned it down', parent_id: chorus.id });
    expect(answer.version_id).toBe(v1);
    expect(
      (await as(owner).patch(`/api/comments/${chorus.id}`, { resolved: true })).statusCode,
    ).toBe(200);
    const after = (await as(owner).get(`/api/versions/${v3}/comments?include=previous`)).json<
      Comment[]
    >();
    expect(after.some((c) => c.id === chorus.id || c.parent_id === chorus.id)).toBe(false);
  }, 120_000);

  it('answers members, refuses others with 404 and checks its input', async () => {
    const [v1, v2] = ids as [string, string];
    const db = t.deps.database.db;
    const viewer = await buildMember(db, { projectId: target.project_id }, 'viewer');
    expect((await alignment(v1, v2, viewer)).body.status).toBe('ready');
    const stranger = await buildUser(db);
    expect((await alignment(v1, v2, stranger)).status).toBe(404);
    const strangerComments = await as(stranger).get(
      `/api/versions/${v2}/comments?include=previous`,
    );
    expect(strangerComments.statusCode).toBe(404);
    // A version of another project (the stranger's own) is not found from this one.
    const elsewhere = await buildProject(db, owner.id);
    const otherVersion = await as(owner).upload(
      { path: files.v1 },
      {
        project_id: elsewhere.project.id,
        branch_id: elsewhere.branch.id,
        commit_message: 'Elsewhere',
      },
    );
    const otherId = otherVersion.json<{ version_id: string }>().version_id;
    expect((await alignment(v1, otherId)).status).toBe(404);
    expect((await alignment(v1, 'no-such-version')).status).toBe(404);
    const changes = (path: string, user = owner) => as(user).get(path);
    expect((await changes(`/api/versions/${v1}/changes?against=${v2}`, viewer)).statusCode).toBe(
      200,
    );
    expect((await changes(`/api/versions/${v1}/changes?against=${v2}`, stranger)).statusCode).toBe(
      404,
    );
    expect((await changes(`/api/versions/${v1}/changes?against=${otherId}`)).statusCode).toBe(404);
    expect((await changes(`/api/versions/${v1}/changes`)).statusCode).toBe(400);
    const same = await alignment(v1, v1);
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({ error: ALIGNMENT_MESSAGES.sameVersion });
    const missing = await as(owner).get(`/api/versions/${v1}/alignment`);
    expect(missing.statusCode).toBe(400);
  }, 60_000);

  it('aligns any two versions on demand: pending first, then ready', async () => {
    const [v1, , v3] = ids as [string, string, string];
    const first = await alignment(v3, v1);
    expect(first.status).toBe(200);
    expect(['pending', 'ready']).toContain(first.body.status);
    const done = await ready(v3, v1);
    expect(done.status).toBe('ready');
    // 21.5 s of version 3 is 22 s of version 1.
    const segment = done.segments.find((s) => s.from_start <= 21.5 && s.from_end >= 21.5)!;
    const share = (21.5 - segment.from_start) / (segment.from_end - segment.from_start);
    near(segment.to_start + share * (segment.to_end - segment.to_start), 22);
  }, 60_000);

  it('records a failed alignment and leaves processing completed', async () => {
    const [, , v3] = ids as [string, string, string];
    // Version 3's stored audio is gone: the next version cannot be aligned with it.
    const kept = path.join(dir, 'kept');
    fs.mkdirSync(kept);
    const gone = [
      ...(await t.deps.storage.list(`renditions/${v3}/`)),
      ...(await t.deps.storage.list('originals/')),
    ];
    for (const [n, object] of gone.entries()) {
      await pipeline(
        (await t.deps.storage.get(object.key)).body,
        fs.createWriteStream(path.join(kept, String(n))),
      );
      await t.deps.storage.delete(object.key);
    }
    const v4 = await upload(files.v1);
    const failed = await ready(v3, v4);
    expect(failed).toEqual({
      status: 'failed',
      confidence: null,
      segments: [],
      error: ALIGNMENT_MESSAGES.undecodable,
    });
    expect((await as(owner).get(`/api/versions/${v4}/changes?against=${v3}`)).json()).toEqual({
      status: 'failed',
      threshold_db: null,
      regions: [],
      error: ALIGNMENT_MESSAGES.undecodable,
    });
    const processing: unknown = (await as(owner).get(`/api/versions/${v4}/processing`)).json();
    expect(processing).toMatchObject({ status: 'completed' });
    // Comments of version 3 stay where they were, marked as not aligned.
    const listed = (await as(owner).get(`/api/versions/${v4}/comments?include=previous`)).json<
      Comment[]
    >();
    const own = listed.find((c) => c.content === 'Final check')!;
    expect(own.timestamp).toBe(3);
    expect(own.carried).toMatchObject({ status: 'moved', aligned: false, from_version_number: 3 });

    // The audio is back (it was a passing storage problem): asked again within ten minutes the
    // failure stands; asked later, the pair is aligned again.
    for (const [n, object] of gone.entries())
      await t.deps.storage.putFile(object.key, path.join(kept, String(n)));
    expect((await alignment(v3, v4)).body.status).toBe('failed');
    const failedAt = new Date(Date.now() - 11 * 60 * 1000).toISOString();
    await t.deps.database.db
      .updateTable('version_alignments')
      .set({ updated_at: failedAt })
      .where('status', '=', 'failed')
      .execute();
    expect((await alignment(v3, v4)).body.status).not.toBe('failed');
    expect(await ready(v3, v4)).toMatchObject({ status: 'ready', error: null });
  }, 180_000);
});
