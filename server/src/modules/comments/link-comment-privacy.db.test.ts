import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '@takes/contract';
import { api } from '../../../test/api';
import { addMember, buildUser } from '../../../test/factories';
import { collectionWorld, shareCollection, visitor } from '../../../test/collection-world';
import { createTestApp, type TestApp } from '../../../test/test-app';

/**
 * Comments through links: a signed-in listener who may not comment on the project speaks as a
 * visitor (their name, no account), and what a collection link's recipient writes stays between
 * them and the team, never on a version link.
 */
describe('comments through links', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-link-comment-privacy-'));
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The collection world (its owner an Editor of the band's project), a version link to the
   * band's take made by the band's owner, and a collection link for Ana.
   */
  async function world() {
    const w = await collectionWorld(t, dir);
    const bandTake = w.versions[1]?.id ?? '';
    const made = await api(t, w.bandOwner.cookie).post(`/api/versions/${bandTake}/links`, {});
    expect(made.statusCode, made.body).toBe(201);
    const versionLink = `/api/links/hash/${made.json<{ hash: string }>().hash}/comments`;
    const [ana, ben] = await shareCollection(w.as, w.collection.id, {
      name: 'Press',
      recipients: [{ name: 'Ana' }, { name: 'Ben' }],
    });
    const itemComments = (key: string | undefined) =>
      `/api/collection-links/${key}/items/${w.itemIds[1]}/comments`;
    return {
      w,
      bandTake,
      versionLink,
      anaLink: itemComments(ana?.key),
      benLink: itemComments(ben?.key),
      anaLinkId: ana?.id ?? '',
    };
  }

  const stored = (id: string) =>
    t.deps.database.db
      .selectFrom('comments')
      .select(['user_id', 'visitor_name', 'link_id', 'collection_link_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('stores a signed-in Viewer’s or stranger’s comment through any link as a visitor’s, a Commenter’s as theirs', async () => {
    const { w, bandTake, versionLink, anaLink } = await world();
    const db = t.deps.database.db;
    const viewer = await buildUser(db, { name: 'Vic Viewer' });
    await addMember(db, { projectId: w.band.project.id }, viewer.id, 'viewer');
    const commenter = await buildUser(db, { name: 'Cam' });
    await addMember(db, { projectId: w.band.project.id }, commenter.id, 'commenter');
    const stranger = await buildUser(db, { name: 'Sid' });

    // The Viewer may not comment as a member …
    const direct = await api(t, viewer.cookie).post(`/api/versions/${bandTake}/comments`, {
      content: 'Direct',
    });
    expect(direct.statusCode).toBe(403);
    // … so through a version link or a collection link they are a visitor with their name.
    for (const url of [versionLink, anaLink]) {
      const made = await visitor(t).post(
        url,
        { content: 'Through a link', visitor_name: 'Somebody else' },
        viewer.cookie,
      );
      expect(made.statusCode, made.body).toBe(201);
      const comment = made.json<Comment>();
      expect(comment).toMatchObject({
        user_id: null,
        visitor_name: 'Vic Viewer',
        author: 'Vic Viewer',
      });
      expect(await stored(comment.id)).toMatchObject({ user_id: null, visitor_name: 'Vic Viewer' });
    }
    // A signed-in non-member likewise.
    const theirs = (
      await visitor(t).post(versionLink, { content: 'Hello' }, stranger.cookie)
    ).json<Comment>();
    expect(await stored(theirs.id)).toMatchObject({ user_id: null, visitor_name: 'Sid' });
    // A Commenter of the project speaks as themselves.
    for (const url of [versionLink, anaLink]) {
      const made = await visitor(t).post(url, { content: 'As me' }, commenter.cookie);
      expect(made.statusCode, made.body).toBe(201);
      expect(await stored(made.json<Comment>().id)).toMatchObject({
        user_id: commenter.id,
        visitor_name: null,
      });
    }
  });

  it("keeps a collection link's comments off every version link, shows them to the team under the recipient's name", async () => {
    const { w, bandTake, versionLink, anaLink, benLink, anaLinkId } = await world();
    const team = api(t, w.bandOwner.cookie);
    const note = (
      await visitor(t).post(anaLink, { content: 'Private note', visitor_name: 'Ana' })
    ).json<Comment>();
    expect(await stored(note.id)).toMatchObject({
      link_id: null,
      collection_link_id: anaLinkId,
      user_id: null,
      visitor_name: 'Ana',
    });
    // The team answers it on the version page; a version link's listener writes there too.
    const reply = await team.post(`/api/versions/${bandTake}/comments`, {
      content: 'Thanks Ana',
      parent_id: note.id,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const open = await visitor(t).post(versionLink, { content: 'Public', visitor_name: 'Lee' });
    expect(open.statusCode, open.body).toBe(201);

    // The team sees everything, Ana's note under her name.
    const seen = (await team.get(`/api/versions/${bandTake}/comments`)).json<Comment[]>();
    expect(seen.map((c) => [c.author, c.content])).toEqual([
      ['Ana', 'Private note'],
      ['Bo', 'Thanks Ana'],
      ['Lee', 'Public'],
    ]);
    // The version link (listeners see each other's comments) shows neither the note nor the reply.
    const onLink = (await visitor(t).get(versionLink)).json<Comment[]>();
    expect(onLink.map((c) => c.content)).toEqual(['Public']);
    // Ana's link shows her thread, not the version link's comment; Ben's shows nothing.
    expect((await visitor(t).get(anaLink)).json<Comment[]>().map((c) => c.content)).toEqual([
      'Private note',
      'Thanks Ana',
    ]);
    expect((await visitor(t).get(benLink)).json<Comment[]>()).toEqual([]);
    // A version link's listener cannot reply into Ana's thread.
    const sneaky = await visitor(t).post(versionLink, {
      content: 'Me too',
      visitor_name: 'Lee',
      parent_id: note.id,
    });
    expect(sneaky.statusCode).toBe(404);

    // The collection (and its links) deleted: the note stays with the team, still private.
    expect((await w.as.delete(`/api/collections/${w.collection.id}`)).statusCode).toBe(204);
    expect(await stored(note.id)).toMatchObject({ collection_link_id: null });
    expect((await visitor(t).get(versionLink)).json<Comment[]>().map((c) => c.content)).toEqual([
      'Public',
    ]);
    const after = (await team.get(`/api/versions/${bandTake}/comments`)).json<Comment[]>();
    expect(after.map((c) => c.content)).toContain('Private note');
  });
});
