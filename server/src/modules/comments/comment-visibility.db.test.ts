import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, newUser, ORIGIN } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../../test/test-app';

interface Listed {
  id: string;
  content: string;
  team_only: boolean;
  parent_id: string | null;
}

/**
 * Who sees which comment: the owner, and visitors of three links to one version. Links A and C
 * keep the default 'Listeners see each other's comments'; link B turns it off.
 */
describe("comment visibility: 'Team only' and 'Listeners see each other's comments'", () => {
  let t: TestApp;
  let dir: string;
  let versionId: string;
  let owner: ReturnType<typeof api>;
  let stranger: ReturnType<typeof api>;
  const link = { A: { id: '', hash: '' }, B: { id: '', hash: '' }, C: { id: '', hash: '' } };
  /** Comment ids by their text. */
  const ids: Record<string, string> = {};

  const visitorPost = (hash: string, payload: object, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/links/hash/${hash}/comments`,
      payload,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    });
  const visitorList = async (hash: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/links/hash/${hash}/comments` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Listed[]>();
  };
  const contents = (list: Listed[]) => list.map((c) => c.content).sort();
  const ownerList = async () =>
    (await owner.get(`/api/versions/${versionId}/comments`)).json<Listed[]>();

  async function ownerComment(content: string, extra: object = {}) {
    const response = await owner.post(`/api/versions/${versionId}/comments`, {
      content,
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    ids[content] = response.json<Listed>().id;
    return response.json<Listed>();
  }
  async function visitorComment(which: keyof typeof link, content: string, extra: object = {}) {
    const response = await visitorPost(link[which].hash, {
      visitor_name: `Listener ${which}`,
      content,
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    ids[content] = response.json<Listed>().id;
    return response.json<Listed>();
  }

  let ownerCookie: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-visibility-'));
    t = await createTestApp();
    ownerCookie = await newUser(t);
    owner = api(t, ownerCookie);
    stranger = api(t, await newUser(t, 'stranger'));
    const wav = await makeAudio(dir, 'wav', 1, 'Session.wav');
    versionId = (await owner.upload({ path: wav }, {})).json<{ version_id: string }>().version_id;
    const make = async (body: object) => {
      const response = await owner.post(`/api/versions/${versionId}/links`, body);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: string; hash: string }>();
    };
    link.A = await make({ name: 'A' });
    link.B = await make({ name: 'B', listeners_see_each_other: false });
    link.C = await make({ name: 'C' });

    await ownerComment('Owner note');
    await ownerComment('Team secret', { team_only: true });
    await visitorComment('A', 'From A');
    await visitorComment('B', 'From B');
    await visitorComment('C', 'From C');
    await ownerComment('Owner answers B', { parent_id: ids['From B'] });
    await ownerComment('Team aside on A', { parent_id: ids['From A'], team_only: true });
    await visitorComment('A', 'A answers C', { parent_id: ids['From C'] });
    await visitorComment('B', 'B thanks owner', { parent_id: ids['Owner answers B'] });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('links carry the option, default on, and the owner lists and changes it', async () => {
    const list = (await owner.get(`/api/versions/${versionId}/links`)).json<
      { name: string; listeners_see_each_other: boolean }[]
    >();
    expect(Object.fromEntries(list.map((l) => [l.name, l.listeners_see_each_other]))).toEqual({
      A: true,
      B: false,
      C: true,
    });
    const notMine = await stranger.patch(`/api/links/${link.B.id}`, {
      listeners_see_each_other: true,
    });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json()).toEqual({ error: 'Link not found', code: 'not_found' });
    const anonymous = await t.app.inject({
      method: 'PATCH',
      url: `/api/links/${link.B.id}`,
      payload: { listeners_see_each_other: true },
      headers: { origin: ORIGIN },
    });
    expect(anonymous.statusCode).toBe(401);
    const bad = await owner.patch(`/api/links/${link.B.id}`, { listeners_see_each_other: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toEqual(expect.any(String));
    // Nothing above changed it.
    expect(
      (await owner.get(`/api/versions/${versionId}/links`))
        .json<{ id: string; listeners_see_each_other: boolean }[]>()
        .find((l) => l.id === link.B.id)?.listeners_see_each_other,
    ).toBe(false);
  });

  it('the owner sees every comment, with team-only ones marked and replies inheriting it', async () => {
    const all = await ownerList();
    expect(contents(all)).toEqual(
      [
        'Owner note',
        'Team secret',
        'From A',
        'From B',
        'From C',
        'Owner answers B',
        'Team aside on A',
        'A answers C',
        'B thanks owner',
      ].sort(),
    );
    const teamOnly = all.filter((c) => c.team_only).map((c) => c.content);
    expect(teamOnly.sort()).toEqual(['Team aside on A', 'Team secret']);

    // A reply to a team-only comment is team-only even when not asked to be.
    const reply = await ownerComment('Reply under secret', { parent_id: ids['Team secret'] });
    expect(reply).toMatchObject({ team_only: true, parent_id: ids['Team secret'] });
  });

  it('visitors of links with the option on see every comment except team-only ones', async () => {
    const expected = [
      'Owner note',
      'From A',
      'From B',
      'From C',
      'Owner answers B',
      'A answers C',
      'B thanks owner',
    ].sort();
    for (const which of ['A', 'C'] as const) {
      const list = await visitorList(link[which].hash);
      expect(contents(list)).toEqual(expected);
      expect(list.every((c) => !c.team_only)).toBe(true);
    }
  });

  it('with the option off a visitor sees only their link’s threads, until it is turned on', async () => {
    expect(contents(await visitorList(link.B.hash))).toEqual(
      ['From B', 'Owner answers B', 'B thanks owner'].sort(),
    );
    const on = await owner.patch(`/api/links/${link.B.id}`, { listeners_see_each_other: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ id: link.B.id, listeners_see_each_other: true });
    expect(contents(await visitorList(link.B.hash))).toEqual(
      contents(await visitorList(link.A.hash)),
    );
    const off = await owner.patch(`/api/links/${link.B.id}`, { listeners_see_each_other: false });
    expect(off.json()).toMatchObject({ listeners_see_each_other: false });
    expect(contents(await visitorList(link.B.hash))).toEqual(
      ['From B', 'Owner answers B', 'B thanks owner'].sort(),
    );
  });

  it('a visitor cannot reach a hidden comment by its id: replying to it is not found', async () => {
    const missing = await visitorPost(link.A.hash, {
      visitor_name: 'Prober',
      content: 'hello?',
      parent_id: 'no-such-comment',
    });
    expect(missing.statusCode).toBe(404);
    for (const hidden of ['Team secret', 'Reply under secret', 'Team aside on A']) {
      const response = await visitorPost(link.A.hash, {
        visitor_name: 'Prober',
        content: 'hello?',
        parent_id: ids[hidden],
      });
      // Exactly the answer for an id that does not exist.
      expect(response.statusCode, hidden).toBe(404);
      expect(response.json()).toEqual(missing.json());
      expect(response.json()).toEqual({ error: 'Comment not found', code: 'not_found' });
    }
    // Link B's visitors cannot answer what link B does not show them.
    for (const elsewhere of ['Owner note', 'From A', 'From C', 'A answers C']) {
      const response = await visitorPost(link.B.hash, {
        visitor_name: 'Listener B',
        content: 'me too',
        parent_id: ids[elsewhere],
      });
      expect(response.statusCode, elsewhere).toBe(404);
      expect(response.json()).toEqual({ error: 'Comment not found', code: 'not_found' });
    }
    // ...but can answer in their own thread, including the owner's reply to them.
    const inThread = await visitorPost(link.B.hash, {
      visitor_name: 'Listener B',
      content: 'One more thing',
      parent_id: ids['Owner answers B'],
    });
    expect(inThread.statusCode, inThread.body).toBe(201);
    // Nothing was written by the refused attempts.
    const all = await ownerList();
    expect(all.filter((c) => c.content === 'hello?' || c.content === 'me too')).toEqual([]);
    expect(contents(await visitorList(link.B.hash))).toContain('One more thing');
  });

  it('visitors can never write a team-only comment, even signed in as the owner', async () => {
    const anonymous = await visitorPost(link.C.hash, {
      visitor_name: 'Sneaky',
      content: 'Am I secret?',
      team_only: true,
    });
    expect(anonymous.statusCode, anonymous.body).toBe(201);
    expect(anonymous.json()).toMatchObject({ team_only: false });
    const asOwner = await visitorPost(
      link.C.hash,
      { content: 'Owner through the link', team_only: true },
      ownerCookie,
    );
    expect(asOwner.statusCode, asOwner.body).toBe(201);
    expect(asOwner.json()).toMatchObject({ team_only: false });
    const seenByA = contents(await visitorList(link.A.hash));
    expect(seenByA).toContain('Am I secret?');
    expect(seenByA).toContain('Owner through the link');
    // Made through link C: link B (option off) does not show them.
    const seenByB = contents(await visitorList(link.B.hash));
    expect(seenByB).not.toContain('Am I secret?');
    expect(seenByB).not.toContain('Owner through the link');
  });

  it('a reply by the owner to a visitor’s comment shows on that visitor’s link only', async () => {
    const reply = await ownerComment('Owner answers C', { parent_id: ids['From C'] });
    expect(reply.team_only).toBe(false);
    expect(contents(await visitorList(link.C.hash))).toContain('Owner answers C');
    expect(contents(await visitorList(link.B.hash))).not.toContain('Owner answers C');
    // A team-only reply in a visitor's thread stays with the team.
    await ownerComment('Note to self on B', { parent_id: ids['From B'], team_only: true });
    expect(contents(await visitorList(link.B.hash))).not.toContain('Note to self on B');
    expect(contents(await ownerList())).toContain('Note to self on B');
  });
});
