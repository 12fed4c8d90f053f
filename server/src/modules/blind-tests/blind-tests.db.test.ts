import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BLIND_TEST_MESSAGES,
  type BlindListenerPage,
  type BlindTest,
  type BlindTestResults,
} from '@takes/contract';
import { sox } from '../../../bench/alignment-set';
import { api, eventually, ORIGIN } from '../../../test/api';
import { buildMember, buildProject, buildUser, type BuiltUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

// Blind tests through real processing and the real job that makes their audio: what the owner
// and Editors may do, what a listener's browser is sent (letters and opaque ids only), votes,
// ABX trials drawn and checked on the server, and access like other links.
describe('blind tests', () => {
  let dir: string;
  let t: TestApp;
  let owner: BuiltUser;
  let editor: BuiltUser;
  let viewer: BuiltUser;
  let stranger: BuiltUser;
  let projectId: string;
  const versions: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-blind-'));
    t = await createTestApp();
    owner = await buildUser(t.deps.database.db, { name: 'Olivia Owner' });
    const { project, branch } = await buildProject(t.deps.database.db, owner.id);
    projectId = project.id;
    editor = await buildMember(t.deps.database.db, { projectId }, 'editor', { name: 'Ed Editor' });
    viewer = await buildMember(t.deps.database.db, { projectId }, 'viewer');
    stranger = await buildUser(t.deps.database.db);
    await t.deps.jobs.startWorking();
    // Three takes of different lengths and levels.
    const takes = [
      ['Mix A.wav', '4', '-6'],
      ['Mix B.wav', '5', '-14'],
      ['Mix C.wav', '4.5', '-10'],
    ] as const;
    for (const [name, seconds, gain] of takes) {
      const file = path.join(dir, name);
      sox('-n', '-r', '44100', '-c', '2', file, 'synth', seconds, 'pinknoise', 'gain', gain);
      const response = await api(t, owner.cookie).upload(
        { path: file },
        { project_id: project.id, branch_id: branch.id, commit_message: name },
      );
      expect(response.statusCode, response.body).toBe(201);
      versions.push(response.json<{ version_id: string }>().version_id);
    }
    for (const id of versions)
      await eventually(
        async () =>
          (await api(t, owner.cookie).get(`/api/versions/${id}/processing`)).json<{
            status: string;
          }>().status === 'completed',
        60_000,
      );
  }, 120_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const create = async (body: object, user = owner) =>
    api(t, user.cookie).post(`/api/projects/${projectId}/blind-tests`, body);
  const made = async (body: object) => {
    const response = await create(body);
    expect(response.statusCode, response.body).toBe(201);
    const test = response.json<BlindTest>();
    await eventually(async () => (await results(test.id)).test.status === 'ready', 60_000);
    return test;
  };
  const results = async (id: string, user = owner) =>
    (await api(t, user.cookie).get(`/api/blind-tests/${id}/results`)).json<BlindTestResults>();

  /** The listener of a test who was dealt this option id (read from the database). */
  const dealtTo = async (testId: string, optionId: string) => {
    const rows = await t.deps.database.db
      .selectFrom('blind_listeners')
      .selectAll()
      .where('test_id', '=', testId)
      .execute();
    const row = rows.find((r) => r.assignment.includes(`"${optionId}"`));
    if (!row) throw new Error('No listener was dealt that option');
    return row;
  };

  /** A browser holding the link: it keeps the cookies it is given. */
  const browser = (key: string) => {
    const jar = new Map<string, string>();
    const request = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await t.app.inject({
        method,
        url,
        ...(payload ? { payload } : {}),
        headers: {
          origin: ORIGIN,
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      });
      const set = response.headers['set-cookie'];
      for (const line of Array.isArray(set) ? set : set ? [set] : []) {
        const [pair] = line.split(';');
        const at = pair?.indexOf('=') ?? -1;
        if (pair && at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return response;
    };
    return {
      jar,
      open: async () => {
        const response = await request('GET', `/api/blind/${key}`);
        expect(response.statusCode, response.body).toBe(200);
        return { body: response.json<BlindListenerPage>(), raw: response.body };
      },
      request,
      post: (suffix: string, payload: object) =>
        request('POST', `/api/blind/${key}${suffix}`, payload),
    };
  };

  it('lets Editors make, list and read a test; refuses Viewers (403) and strangers (404)', async () => {
    expect(
      (await create({ version_ids: versions, mode: 'preference', name: 'V' }, viewer)).statusCode,
    ).toBe(403);
    expect(
      (await create({ version_ids: versions, mode: 'preference', name: 'S' }, stranger)).statusCode,
    ).toBe(404);
    const bad = async (body: object, message: string) => {
      const response = await create(body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ error: string }>().error).toContain(message);
    };
    await bad(
      { version_ids: [versions[0]], mode: 'preference', name: 'One' },
      BLIND_TEST_MESSAGES.versionCount,
    );
    await bad(
      { version_ids: versions, mode: 'abx', name: 'Three ABX' },
      BLIND_TEST_MESSAGES.abxTwo,
    );
    await bad(
      { version_ids: versions.slice(0, 2), mode: 'abx', trials: 4, name: 'Few' },
      BLIND_TEST_MESSAGES.trials,
    );
    await bad(
      { version_ids: [versions[0], versions[0]], mode: 'preference', name: 'Twice' },
      BLIND_TEST_MESSAGES.versionTwice,
    );
    const { project: other } = await buildProject(t.deps.database.db, stranger.id);
    const foreign = await api(t, stranger.cookie).post(`/api/projects/${other.id}/blind-tests`, {
      version_ids: versions.slice(0, 2),
      mode: 'preference',
      name: 'Not mine',
    });
    expect(foreign.statusCode).toBe(404);

    const response = await create(
      { version_ids: versions, mode: 'preference', name: 'Mix shootout' },
      editor,
    );
    expect(response.statusCode, response.body).toBe(201);
    const test = response.json<BlindTest>();
    expect(test).toMatchObject({
      name: 'Mix shootout',
      mode: 'preference',
      trials: null,
      revoked: false,
    });
    expect(test.versions.map((v) => v.id)).toEqual(versions);
    expect(test.url).toMatch(/\/share\/[A-Za-z0-9]+$/);
    await eventually(async () => (await results(test.id, editor)).test.status === 'ready', 60_000);
    const listed = (await api(t, owner.cookie).get(`/api/projects/${projectId}/blind-tests`)).json<{
      tests: BlindTest[];
    }>();
    expect(listed.tests.map((x) => x.id)).toContain(test.id);
    expect(
      (await api(t, viewer.cookie).get(`/api/blind-tests/${test.id}/results`)).statusCode,
    ).toBe(403);
    expect(
      (await api(t, stranger.cookie).get(`/api/blind-tests/${test.id}/results`)).statusCode,
    ).toBe(404);
  }, 120_000);

  it('deals each listener random letters, keeps them, and names no version before the vote', async () => {
    const test = await made({
      version_ids: versions,
      mode: 'preference',
      name: 'Letters',
      reveal_after_voting: true,
    });
    const key = test.links[0]!.key;
    const orders = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const listener = browser(key);
      const { body, raw } = await listener.open();
      expect(body.options.map((o) => o.letter)).toEqual(['X', 'Y', 'Z']);
      expect(body.levels_matched).toBe(true);
      // Nothing names a version: no id, number, branch or file name.
      for (const secret of [...versions, 'Mix A', 'Mix B', 'Mix C', 'Version', 'main', 'Olivia'])
        expect(raw).not.toContain(secret);
      const row = await dealtTo(test.id, body.options[0]!.id);
      const dealt = JSON.parse(row.assignment) as {
        preference: { version_id: string; option_id: string }[];
      };
      expect(dealt.preference.map((d) => d.option_id)).toEqual(body.options.map((o) => o.id));
      orders.add(dealt.preference.map((d) => versions.indexOf(d.version_id)).join(''));
      if (i === 0) {
        // The same browser is dealt the same letters again.
        expect((await listener.open()).body.options).toEqual(body.options);
        // Every option's audio: the same size, no validators, nothing of the version.
        const sizes = new Set<string>();
        for (const option of body.options) {
          const audio = await listener.request('GET', option.audio_url);
          expect(audio.statusCode).toBe(200);
          expect(audio.headers['content-type']).toBe('audio/mpeg');
          expect(audio.headers.etag).toBeUndefined();
          expect(audio.headers['last-modified']).toBeUndefined();
          expect(audio.headers['content-disposition']).toBeUndefined();
          sizes.add(String(audio.headers['content-length']));
        }
        expect(sizes.size).toBe(1);
        // Another browser cannot use this one's option ids.
        const other = browser(key);
        await other.open();
        expect((await other.request('GET', body.options[0]!.audio_url)).statusCode).toBe(404);
        // Voting needs a name; a vote is kept, a second replaces it, and then the letters are revealed.
        expect((await listener.post('/vote', { option_id: body.options[0]!.id })).statusCode).toBe(
          400,
        );
        expect(
          (await listener.post('/vote', { name: 'Ana', option_id: body.options[0]!.id }))
            .statusCode,
        ).toBe(200);
        const again = await listener.post('/vote', {
          name: 'Ana',
          option_id: body.options[1]!.id,
          note: 'Punchier',
        });
        expect(again.statusCode, again.body).toBe(200);
        const voted = again.json<BlindListenerPage>();
        expect(voted.vote).toEqual({ option_id: body.options[1]!.id, note: 'Punchier' });
        expect(voted.reveal?.map((r) => r.letter)).toEqual(['X', 'Y', 'Z']);
        const y = dealt.preference[1]!.version_id;
        const read = await results(test.id);
        expect(read.preference?.total).toBe(1);
        const forY = read.preference?.votes.find((v) => v.version.id === y);
        expect(forY).toMatchObject({ count: 1, voters: [{ name: 'Ana', note: 'Punchier' }] });
        expect(read.preference?.winner_version_id).toBe(y);
        expect(read.test.links[0]).toMatchObject({ voted: 1 });
      }
    }
    expect(orders.size).toBeGreaterThanOrEqual(3);
    expect((await results(test.id)).test.links[0]!.opened).toBe(21);
  }, 120_000);

  it('draws X on the server, checks each answer there and scores it with its p-value', async () => {
    const test = await made({
      version_ids: versions.slice(0, 2),
      mode: 'abx',
      trials: 10,
      name: 'Can you hear it',
    });
    const key = test.links[0]!.key;
    const run = async (name: string, rightAnswers: number) => {
      const listener = browser(key);
      const { body } = await listener.open();
      expect(body.options).toEqual([]);
      const abx = body.abx!;
      const row = await dealtTo(test.id, abx.a.id);
      const dealt = JSON.parse(row.assignment) as {
        abx: {
          a: { version_id: string; option_id: string };
          b: { version_id: string; option_id: string };
        };
      };
      for (let n = 1; n <= 10; n++) {
        const started = await listener.post('/trials', { name });
        expect(started.statusCode, started.body).toBe(200);
        const trial = started.json<BlindListenerPage>().abx!.trial!;
        expect(trial.number).toBe(n);
        expect([abx.a.id, abx.b.id]).not.toContain(trial.x.id);
        for (const secret of versions) expect(started.body).not.toContain(secret);
        // The same X's audio plays as A's or B's would (the same size).
        const x = await listener.request('GET', trial.x.audio_url);
        expect(x.statusCode).toBe(200);
        const stored = await t.deps.database.db
          .selectFrom('blind_trials')
          .select('x_version_id')
          .where('listener_id', '=', row.id)
          .where('number', '=', n)
          .executeTakeFirstOrThrow();
        const isA = stored.x_version_id === dealt.abx.a.version_id;
        const right = n <= rightAnswers;
        const answer = (isA === right ? abx.a : abx.b).id;
        if (n === 1) {
          // Out of order, and not A or B.
          expect((await listener.post('/trials/answer', { trial: 2, answer })).statusCode).toBe(
            409,
          );
          expect(
            (await listener.post('/trials/answer', { trial: 1, answer: trial.x.id })).statusCode,
          ).toBe(400);
        }
        const answered = await listener.post('/trials/answer', { trial: n, answer });
        expect(answered.statusCode, answered.body).toBe(200);
        if (n === 1)
          expect((await listener.post('/trials/answer', { trial: 1, answer })).statusCode).toBe(
            409,
          );
      }
      const done = await listener.post('/trials', { name });
      expect(done.statusCode).toBe(409);
      return (await listener.open()).body.abx!.result!;
    };
    expect(await run('Sam', 9)).toMatchObject({
      correct: 9,
      total: 10,
      p_value: 0.0107,
      heard: true,
    });
    expect(await run('Kim', 5)).toMatchObject({
      correct: 5,
      total: 10,
      p_value: 0.623,
      heard: false,
    });
    const read = await results(test.id);
    expect(read.abx?.listeners.map((l) => [l.name, l.correct, l.total, l.p_value])).toEqual([
      ['Sam', 9, 10, 0.0107],
      ['Kim', 5, 10, 0.623],
    ]);
    expect(read.abx?.listeners[0]?.verdict).toBe(
      '9 of 10 correct, p = 0.011: they can hear the difference',
    );
    expect(read.abx).toMatchObject({ correct: 14, total: 20 });
    expect(read.preference).toBeNull();

    // Trials started at once by one listener: one trial.
    const listener = browser(key);
    await listener.open();
    const started = await Promise.all(
      Array.from({ length: 5 }, () => listener.post('/trials', { name: 'Rush' })),
    );
    expect(started.every((r) => r.statusCode === 200)).toBe(true);
    const numbers = new Set(started.map((r) => r.json<BlindListenerPage>().abx?.trial?.number));
    expect([...numbers]).toEqual([1]);
  }, 120_000);

  it('guards the link like other links: password, expiry, recipients, revoking', async () => {
    const test = await made({
      version_ids: versions.slice(0, 2),
      mode: 'both',
      name: 'Guarded',
      password: 'tape-saturation-9',
      recipients: [{ name: 'Label' }, { name: 'Band', email: 'band@example.com' }],
    });
    expect(test.links.map((l) => l.recipient?.name)).toEqual(['Label', 'Band']);
    const [label, band] = test.links as [BlindTest['links'][number], BlindTest['links'][number]];
    const listener = browser(label.key);
    const locked = await listener.request('GET', `/api/blind/${label.key}`);
    expect(locked.statusCode).toBe(401);
    expect(locked.json<{ code: string }>().code).toBe('link_password_required');
    expect((await listener.post('/unlock', { password: 'wrong-password-1' })).statusCode).toBe(401);
    expect((await listener.post('/unlock', { password: 'tape-saturation-9' })).statusCode).toBe(
      204,
    );
    const { body } = await listener.open();
    expect(body.recipient_name).toBe('Label');
    expect(body.listener_name).toBe('Label');
    await listener.post('/vote', { name: 'Label', option_id: body.options[0]!.id });
    // A version link's lookup tells the key apart.
    const asVersion = await t.app.inject({ method: 'GET', url: `/api/links/hash/${band.key}` });
    expect(asVersion.json<{ code: string }>().code).toBe('link_is_blind_test');
    const read = await results(test.id);
    expect(read.test.links.map((l) => [l.opened, l.voted])).toEqual([
      [1, 1],
      [0, 0],
    ]);

    // Expired: 410. Revoked: 404, and results stay.
    await t.deps.database.db
      .updateTable('blind_tests')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', test.id)
      .execute();
    expect((await listener.request('GET', `/api/blind/${label.key}`)).statusCode).toBe(410);
    await t.deps.database.db
      .updateTable('blind_tests')
      .set({ expires_at: null })
      .where('id', '=', test.id)
      .execute();
    expect((await api(t, viewer.cookie).delete(`/api/blind-tests/${test.id}`)).statusCode).toBe(
      403,
    );
    expect((await api(t, owner.cookie).delete(`/api/blind-tests/${test.id}`)).statusCode).toBe(204);
    expect((await listener.request('GET', `/api/blind/${label.key}`)).statusCode).toBe(404);
    expect((await results(test.id)).test.revoked).toBe(true);
    // The sweep removes a revoked test's audio and keeps a live one's.
    const live = await made({
      version_ids: versions.slice(0, 2),
      mode: 'preference',
      name: 'Live',
    });
    expect(await t.deps.storage.list(`blind/${test.id}/`)).toHaveLength(2);
    await t.services.blindTests.owner.sweep(0);
    expect(await t.deps.storage.list(`blind/${test.id}/`)).toHaveLength(0);
    expect(await t.deps.storage.list(`blind/${live.id}/`)).toHaveLength(2);
  }, 120_000);

  it("'Mark the winner Approved' approves the version, recorded as from the test", async () => {
    const test = await made({
      version_ids: versions.slice(1),
      mode: 'preference',
      name: 'Final pick',
    });
    const winner = versions[1]!;
    expect(
      (
        await api(t, viewer.cookie).post(`/api/blind-tests/${test.id}/winner`, {
          version_id: winner,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await api(t, owner.cookie).post(`/api/blind-tests/${test.id}/winner`, {
          version_id: versions[0],
        })
      ).statusCode,
    ).toBe(400);
    const approved = await api(t, editor.cookie).post(`/api/blind-tests/${test.id}/winner`, {
      version_id: winner,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', changed_by: 'Ed Editor' });
    const review = (await api(t, owner.cookie).get(`/api/versions/${winner}/review`)).json<{
      history: { status: string; from_blind_test: string | null }[];
    }>();
    expect(review.history[0]).toMatchObject({ status: 'approved', from_blind_test: 'Final pick' });
  }, 60_000);

  it("deletes a deleted version's blind audio", async () => {
    const test = await made({ version_ids: versions.slice(1), mode: 'preference', name: 'Gone' });
    const [, third] = await t.deps.database.db
      .selectFrom('blind_test_options')
      .select(['version_id', 'audio_key'])
      .where('test_id', '=', test.id)
      .orderBy('position')
      .execute();
    expect((await api(t, owner.cookie).delete(`/api/versions/${versions[2]}`)).statusCode).toBe(
      204,
    );
    await t.services.blindTests.owner.sweep(0);
    const left = (await t.deps.storage.list(`blind/${test.id}/`)).map((o) => o.key);
    expect(left).toHaveLength(1);
    expect(left).not.toContain(third?.audio_key);
  }, 60_000);
});
