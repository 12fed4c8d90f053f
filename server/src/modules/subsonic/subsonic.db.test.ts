import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { SubsonicAPI } from 'subsonic-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_APP_KEYS_MAX, PLAYER_APP_MESSAGES, type CreatedPlayerApp } from '@takes/contract';
import { sox } from '../../../bench/alignment-set';
import { api, ORIGIN, uploadProcessed } from '../../../test/api';
import { sendCollectionCover } from '../../../test/collection-world';
import {
  addMember,
  buildCollection,
  buildCollectionItem,
  buildProject,
  buildRepo,
  buildUser,
  buildVersion,
  depsOf,
  publishBounce,
  type BuiltUser,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

// The OpenSubsonic API as a player app meets it: the `subsonic-api` client from npm (and raw
// XML read by fast-xml-parser) against the listening server, signed in with a key made on
// Settings → Devices; what it lists, streams and counts, and what it refuses.
describe('OpenSubsonic for player apps', () => {
  let dir: string;
  let t: TestApp;
  let base: string;
  let owner: BuiltUser;
  let viewer: BuiltUser;
  let stranger: BuiltUser;
  let projectId: string;
  let v1: string;
  let v2: string;
  let sideVersion: string;
  let repoId: string;
  let bounceId: string;
  let collectionId: string;
  let strangerIds: { album: string; song: string; playlist: string; cover: string };

  const client = (apiKey: string, extra: { post?: boolean; fetch?: typeof fetch } = {}) =>
    new SubsonicAPI({ url: base, auth: { apiKey }, ...extra });
  /** A call by hand, JSON, as a player's URL would make it. */
  const raw = async (call: string, init?: RequestInit) => {
    const response = await fetch(
      `${base}/rest/${call}${call.includes('?') ? '&' : '?'}f=json`,
      init,
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as Record<string, Loose>)['subsonic-response'] as Loose;
  };
  const makeKey = async (user: BuiltUser, name: string, latestOnly = false) => {
    const response = await api(t, user.cookie).post('/api/player-apps', {
      name,
      latest_only: latestOnly,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedPlayerApp>();
  };
  const upload = (file: string, message: string, branchId: string) =>
    uploadProcessed(t, owner.cookie, file, {
      project_id: projectId,
      branch_id: branchId,
      commit_message: message,
    });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-subsonic-'));
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    base = `http://127.0.0.1:${address.port}`;
    const db = t.deps.database.db;
    owner = await buildUser(db, { name: 'Olivia Owner' });
    viewer = await buildUser(db, { name: 'Vic Viewer' });
    stranger = await buildUser(db, { name: 'Sam Stranger' });
    const { project, branch } = await buildProject(db, owner.id, { name: 'Night Drive' });
    projectId = project.id;
    await addMember(db, { projectId }, viewer.id, 'viewer');
    await t.deps.jobs.startWorking();
    const take = path.join(dir, 'take.wav');
    sox('-n', '-r', '44100', '-c', '2', take, 'synth', '3', 'pluck', 'C3', 'gain', '-6');
    v1 = await upload(take, 'First mix', branch.id);
    v2 = await upload(take, 'Brighter', branch.id);
    const side = await db
      .insertInto('branches')
      .values({
        id: `side-${projectId.slice(0, 8)}`,
        project_id: projectId,
        name: 'acoustic',
        is_default: 0,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    sideVersion = (
      await buildVersion(
        depsOf(t),
        { projectId, branchId: side.id },
        { file: take, processed: true, overrides: { message: 'Unplugged' } },
      )
    ).id;
    // A repository with a cover and a bounce; a collection of a version and the bounce.
    const repo = await buildRepo(db, owner.id, { name: 'Singles' });
    repoId = repo.id;
    const png = path.join(dir, 'cover.png');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=300x200',
      '-frames:v',
      '1',
      png,
    ]);
    const image = coverPayload(fs.readFileSync(png));
    const repoCover = await t.app.inject({
      method: 'POST',
      url: `/api/repos/${repoId}/cover`,
      payload: image.payload,
      headers: { ...image.headers, cookie: owner.cookie, origin: ORIGIN },
    });
    expect(repoCover.statusCode, repoCover.body).toBe(200);
    bounceId = (await publishBounce(depsOf(t), repoId, take)).id;
    const collection = await buildCollection(db, owner.id, { name: 'Car mixes' });
    collectionId = collection.id;
    await buildCollectionItem(db, collection, { version_id: v2 }, 0);
    await buildCollectionItem(db, collection, { bounce_id: bounceId }, 1);
    // The stranger's own things, which no key of the others may reach.
    const theirs = await buildProject(db, stranger.id, { name: 'Secret Song' });
    const theirVersion = await buildVersion(
      depsOf(t),
      { projectId: theirs.project.id, branchId: theirs.branch.id },
      { file: take, processed: true },
    );
    const theirCollection = await buildCollection(db, stranger.id, { name: 'Hidden List' });
    expect(
      (await sendCollectionCover(t, stranger.cookie, theirCollection.id, fs.readFileSync(png)))
        .statusCode,
    ).toBe(200);
    strangerIds = {
      album: `p-${theirs.project.id}`,
      song: `v-${theirVersion.id}`,
      playlist: `c-${theirCollection.id}`,
      cover: `c-${theirCollection.id}`,
    };
  }, 180_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs in with a key only: ping, extensions, password and token refused with 42', async () => {
    const { api_key: key, player_app: app } = await makeKey(owner, 'Car (Symfonium)');
    expect(app.key_prefix).toBe(key.slice(0, 8));
    expect((await client(key).ping()).status).toBe('ok');
    const extensions = await client(key).getOpenSubsonicExtensions();
    expect(extensions.openSubsonicExtensions?.map((e) => e.name)).toContain('apiKeyAuthentication');
    // Password (as a token and salt) is refused, with where to get a key.
    const password = new SubsonicAPI({ url: base, auth: { username: owner.email, password: 'x' } });
    const refused = failure(await password.ping());
    expect(refused.status).toBe('failed');
    expect(refused.error?.code).toBe(42);
    expect(refused.error?.message).toContain('Settings → Devices');
    const both = await raw(`ping?apiKey=${key}&u=${owner.email}&p=x`);
    expect(both.error?.code).toBe(43);
    expect((await raw('ping.view')).error?.code).toBe(10);
    // The person behind the key, and the one folder.
    const user = await client(key).getUser({ username: owner.email });
    expect(user.user.username).toBe(owner.email);
    expect(user.user.streamRole).toBe(true);
    expect(
      failure(await client(key).getUser({ username: 'someone@else.example' })).error?.code,
    ).toBe(50);
    expect((await raw(`tokenInfo?apiKey=${key}`))['tokenInfo']).toEqual({ username: owner.email });
    expect((await client(key).getLicense()).license.valid).toBe(true);
    expect(
      (await client(key).getMusicFolders()).musicFolders.musicFolder?.map((f) => f.name),
    ).toEqual(['Takes']);
    // The key's last use and the app's own name show on Settings → Devices.
    const listed = await api(t, owner.cookie).get('/api/player-apps');
    const [shown] = listed.json<{
      player_apps: { last_used_at: string | null; last_client: string | null }[];
    }>().player_apps;
    expect(shown?.last_used_at).not.toBeNull();
    expect(shown?.last_client).toBe('subsonic-api');
  });

  it('lists the projects and repositories a person may hear as albums, songs newest first', async () => {
    const { api_key: key } = await makeKey(viewer, 'Earbuds');
    const newest = await client(key).getAlbumList2({ type: 'newest' });
    const albums = newest.albumList2.album ?? [];
    expect(albums.map((album) => album.name)).toEqual(['Night Drive']);
    const [night] = albums;
    expect(night?.artist).toBe('Olivia Owner');
    expect(night?.songCount).toBe(2);
    // The list's counts (made by the database) agree with the album's own songs.
    expect(night?.duration).toBe(6);
    const { album } = await client(key).getAlbum({ id: night!.id });
    expect(album.song?.map((song) => song.title)).toEqual([
      'Night Drive — v2 (Brighter)',
      'Night Drive — v1 (First mix)',
    ]);
    expect(album.song?.map((song) => song.id)).toEqual([`v-${v2}`, `v-${v1}`]);
    const { song } = await client(key).getSong({ id: `v-${v1}` });
    expect(song.title).toBe('Night Drive — v1 (First mix)');
    expect(song.duration).toBe(3);
    expect(song.suffix).toBe('mp3');
    // The owner also sees their repository, with its cover, as an album of its bounces.
    const { api_key: ownerKey } = await makeKey(owner, 'Phone');
    const byName = await client(ownerKey).getAlbumList2({ type: 'alphabeticalByName' });
    expect(byName.albumList2.album?.map((a) => a.name)).toEqual(['Night Drive', 'Singles']);
    const singles = byName.albumList2.album?.find((a) => a.name === 'Singles');
    expect(singles?.coverArt).toBe(`r-${repoId}`);
    const repoAlbum = await client(ownerKey).getAlbum({ id: singles!.id });
    expect(repoAlbum.album.song?.map((s) => s.id)).toEqual([`b-${bounceId}`]);
    // The artist index and one artist.
    const artists = await client(ownerKey).getArtists();
    const names = artists.artists.index?.flatMap((i) => (i.artist ?? []).map((a) => a.name));
    expect(names).toEqual(['Olivia Owner']);
    const artist = await client(ownerKey).getArtist({ id: night!.artistId! });
    expect(artist.artist.album?.length).toBe(2);
  });

  it("a key made with 'Only the latest version of each branch' shows one song per branch", async () => {
    const { api_key: key } = await makeKey(owner, 'Car, latest', true);
    const { album } = await client(key).getAlbum({ id: `p-${projectId}` });
    expect(album.song?.map((song) => song.id).sort()).toEqual(
      [`v-${v2}`, `v-${sideVersion}`].sort(),
    );
    expect(album.song?.map((song) => song.title)).toContain(
      'Night Drive — acoustic v1 (Unplugged)',
    );
    // The list counts the same songs (v2: 3 s; the acoustic version: 2 s).
    const listed = await client(key).getAlbumList2({ type: 'alphabeticalByName' });
    const night = listed.albumList2.album?.find((a) => a.name === 'Night Drive');
    expect([night?.songCount, night?.duration]).toEqual([2, 5]);
  });

  it('searches, and lists collections as playlists', async () => {
    const { api_key: key } = await makeKey(owner, 'Search');
    const found = await client(key).search3({ query: 'brighter' });
    expect(found.searchResult3.song?.map((song) => song.id)).toEqual([`v-${v2}`]);
    const all = await client(key).search3({ query: '' });
    expect(all.searchResult3.album?.map((a) => a.name)).toEqual(['Night Drive', 'Singles']);
    expect((await client(key).search3({ query: 'secret' })).searchResult3.song ?? []).toEqual([]);
    // '' pages through every song: the versions newest first, then the bounces.
    const everything = await client(key).search3({ query: '', songCount: 2, songOffset: 1 });
    expect(everything.searchResult3.song?.map((song) => song.id)).toEqual([
      `v-${v1}`,
      `b-${bounceId}`,
    ]);
    const one = await client(key).search3({ query: 'night v1' });
    expect(one.searchResult3.song?.map((song) => song.id)).toEqual([`v-${v1}`]);
    // Random songs come from the same songs, each once.
    const random = await client(key).getRandomSongs({ size: 10 });
    expect(random.randomSongs.song?.map((song) => song.id).sort()).toEqual(
      [`v-${v1}`, `v-${v2}`, `b-${bounceId}`].sort(),
    );
    expect((await client(key).getRandomSongs({ size: 1 })).randomSongs.song).toHaveLength(1);
    // A LIKE wildcard in the query is a plain character.
    expect((await client(key).search3({ query: '%' })).searchResult3.song ?? []).toEqual([]);
    const playlists = await client(key).getPlaylists();
    expect(playlists.playlists.playlist?.map((p) => p.name)).toEqual(['Car mixes']);
    const { playlist } = await client(key).getPlaylist({ id: `c-${collectionId}` });
    expect(playlist.entry?.map((entry) => entry.id)).toEqual([`v-${v2}`, `b-${bounceId}`]);
    // Sent as a form post (the formPost extension) it answers the same.
    const posted = await client(key, { post: true }).getPlaylist({ id: `c-${collectionId}` });
    expect(posted.playlist.entry?.length).toBe(2);
  });

  it('streams with Range: the 320k rendition, the standard one at maxBitRate=128, the original raw', async () => {
    const { api_key: key } = await makeKey(viewer, 'Range');
    const row = await t.deps.database.db
      .selectFrom('versions')
      .select(['renditions', 'original_key'])
      .where('id', '=', v2)
      .executeTakeFirstOrThrow();
    const renditions = JSON.parse(row.renditions) as Record<string, { key: string; size: number }>;
    const stored = async (key: string) => {
      const chunks: Buffer[] = [];
      for await (const chunk of (await t.deps.storage.get(key)).body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    const high = await stored(renditions.high!.key);
    const standard = await stored(renditions.standard!.key);
    expect(high.equals(standard)).toBe(false);
    let range: string | undefined = 'bytes=100-1099';
    const withRange: typeof fetch = (input, init) =>
      fetch(input, { ...init, headers: { ...(range ? { range } : {}) } });
    const ranged = await client(key, { fetch: withRange }).stream({ id: `v-${v2}` });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-1099/${high.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(high.subarray(100, 1100))).toBe(true);
    range = undefined;
    const low = await client(key, { fetch: withRange }).stream({ id: `v-${v2}`, maxBitRate: 128 });
    expect(low.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await low.arrayBuffer()).equals(standard)).toBe(true);
    const original = await stored(row.original_key!);
    const rawFile = await client(key, { fetch: withRange }).stream({
      id: `v-${v2}`,
      format: 'raw',
    });
    expect(Buffer.from(await rawFile.arrayBuffer()).equals(original)).toBe(true);
    const download = await client(key, { fetch: withRange }).download({ id: `v-${v2}` });
    expect(download.headers.get('content-disposition')).toContain('Night Drive');
  });

  it('serves covers, scaled to the size asked for', async () => {
    const { api_key: key } = await makeKey(owner, 'Covers');
    const full = await client(key).getCoverArt({ id: `r-${repoId}` });
    expect(full.headers.get('content-type')).toBe('image/png');
    const small = await client(key).getCoverArt({ id: `r-${repoId}`, size: 60 });
    expect(small.headers.get('content-type')).toBe('image/jpeg');
    const file = path.join(dir, 'small.jpg');
    fs.writeFileSync(file, Buffer.from(await small.arrayBuffer()));
    const probed = execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=width,height',
      '-of',
      'csv=p=0',
      file,
    ]);
    expect(probed.toString().trim()).toBe('60,40');
    const playlistCover = await client(key).getCoverArt({ id: `c-${collectionId}` });
    expect(playlistCover.status).toBe(200);
  });

  it('a scrobble counts a play and shows in Activity as listened on a device', async () => {
    const { api_key: key } = await makeKey(viewer, 'Car');
    expect((await client(key).getAlbumList2({ type: 'frequent' })).albumList2.album ?? []).toEqual(
      [],
    );
    expect((await client(key).scrobble({ id: `v-${v2}` })).status).toBe('ok');
    // A 'now playing' notice is not a play.
    await client(key).scrobble({ id: `v-${v2}`, submission: false });
    const frequent = await client(key).getAlbumList2({ type: 'frequent' });
    expect(frequent.albumList2.album?.map((a) => [a.name, a.playCount])).toEqual([
      ['Night Drive', 1],
    ]);
    const recent = await client(key).getAlbumList2({ type: 'recent' });
    expect(recent.albumList2.album?.map((a) => a.name)).toEqual(['Night Drive']);
    expect((await client(key).getSong({ id: `v-${v2}` })).song.playCount).toBe(1);
    const activity = await api(t, owner.cookie).get(`/api/projects/${projectId}/activity`);
    const lines = activity.json<{ items: { summary: string }[] }>().items.map((i) => i.summary);
    expect(lines).toContain("Vic Viewer listened to Version 2 on main on a device ('Car')");
    expect((await client(key).getNowPlaying()).nowPlaying).toEqual({});
  });

  it("answers error 70 for another person's album, song, playlist or cover, with nothing of it", async () => {
    const { api_key: key } = await makeKey(owner, 'Strangers');
    const calls = [
      `getAlbum?id=${strangerIds.album}`,
      `getSong?id=${strangerIds.song}`,
      `getPlaylist?id=${strangerIds.playlist}`,
      `getCoverArt?id=${strangerIds.cover}`,
      `stream?id=${strangerIds.song}`,
      `download?id=${strangerIds.song}`,
      `scrobble?id=${strangerIds.song}`,
      'getAlbum?id=p-no-such-project',
      'getSong?id=nonsense',
    ];
    for (const call of calls) {
      const response = await fetch(`${base}/rest/${call}&f=json&apiKey=${key}`);
      const text = await response.text();
      expect(response.status, call).toBe(200);
      const body = (JSON.parse(text) as Record<string, Loose>)['subsonic-response']!;
      expect(body.error?.code, call).toBe(70);
      expect(text).not.toMatch(/Secret Song|Hidden List|Sam Stranger/);
    }
    const plays = await t.deps.database.db.selectFrom('player_plays').selectAll().execute();
    expect(plays.filter((p) => p.version_id === strangerIds.song.slice(2))).toEqual([]);
  });

  it('answers XML by default, error 0 for calls it does not serve, and never 500', async () => {
    const { api_key: key } = await makeKey(owner, 'XML');
    const response = await fetch(`${base}/rest/getAlbumList2.view?type=newest&apiKey=${key}`);
    expect(response.headers.get('content-type')).toContain('application/xml');
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await response.text(),
    ) as {
      'subsonic-response': {
        status: string;
        xmlns: string;
        albumList2: { album: { name: string } | { name: string }[] };
      };
    };
    const root = xml['subsonic-response'];
    expect(root.status).toBe('ok');
    expect(root.xmlns).toBe('http://subsonic.org/restapi');
    const albums = [root.albumList2.album].flat().map((a) => a.name);
    expect(albums).toEqual(expect.arrayContaining(['Night Drive', 'Singles']));
    for (const call of ['createPlaylist', 'deleteUser', 'jukeboxControl', 'nonsense']) {
      const answer = await raw(`${call}?apiKey=${key}`);
      expect(answer.status, call).toBe('failed');
      expect(answer.error?.code, call).toBe(0);
    }
    expect((await raw(`getAlbumList2?apiKey=${key}`)).error?.code).toBe(10);
    // A U+0000 anywhere is refused before any call, as on every route (400, not 500).
    expect((await fetch(`${base}/rest/ping?c=a%00b&apiKey=${key}`)).status).toBe(400);
  });

  it('a revoked key answers error 44 at once; keys are limited under concurrent adds', async () => {
    const made = await makeKey(owner, 'Old phone');
    expect((await client(made.api_key).ping()).status).toBe('ok');
    const revoked = await api(t, owner.cookie).delete(`/api/player-apps/${made.player_app.id}`);
    expect(revoked.statusCode).toBe(204);
    const after = failure(await client(made.api_key).ping());
    expect(after.error?.code).toBe(44);
    expect(
      (await api(t, owner.cookie).delete(`/api/player-apps/${made.player_app.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await api(t, stranger.cookie).delete(`/api/player-apps/${made.player_app.id}`)).statusCode,
    ).toBe(404);
    // The limit holds under concurrent adds.
    const counted = await api(t, stranger.cookie).get('/api/player-apps');
    const have = counted.json<{ player_apps: unknown[] }>().player_apps.length;
    for (let i = have; i < PLAYER_APP_KEYS_MAX - 2; i++) await makeKey(stranger, `Key ${i}`);
    const racing = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        api(t, stranger.cookie).post('/api/player-apps', { name: `Racer ${i}` }),
      ),
    );
    expect(racing.filter((r) => r.statusCode === 201)).toHaveLength(2);
    const refused = racing.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.json<{ error: string }>().error).toBe(PLAYER_APP_MESSAGES.tooMany);
    const blank = await api(t, stranger.cookie).post('/api/player-apps', { name: '  ' });
    expect(blank.statusCode).toBe(400);
  });
});

/** A Subsonic answer read loosely: the client types only its successes. */
interface Loose {
  status: string;
  error?: { code: number; message: string };
  [field: string]: unknown;
}
const failure = (response: unknown) => response as Loose;

function coverPayload(content: Buffer) {
  const boundary = '----takesrepocover';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="cover_image"; filename="cover.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
