import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../test/api';
import { makeAudio } from '../../test/audio-fixtures';
import { shareCollection, visitor } from '../../test/collection-world';
import {
  addMember,
  buildProject,
  buildRepo,
  buildUser,
  buildVersion,
  depsOf,
  publishBounce,
} from '../../test/factories';
import { openSse, type SseStream } from '../../test/sse';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDialect } from '../../test/test-database';

type Hint = { kind: string; projectId: string | null; repoId: string | null };

/** A collection link's first play is the collection owner's news alone, live as in notifications. */
describe(`live events of a collection link's first play (${testDialect()})`, () => {
  let t: TestApp;
  let base: string;
  let dir: string;
  const open: SseStream[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-first-play-events-'));
    t = await createTestApp({ eventsHeartbeatMs: 200 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    for (const stream of open) stream.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function listen(cookie: string): Promise<SseStream> {
    const stream = await openSse(`${base}/api/events`, { cookie });
    expect(stream.status).toBe(200);
    open.push(stream);
    await stream.waitForLine((line) => line === ': connected');
    return stream;
  }

  it("tells the collection's owner, never the other members of the bounce's repository or the version's project", async () => {
    const db = t.deps.database.db;
    const wav = await makeAudio(dir, 'wav', 1, 'Night Drive.wav');
    // Col owns a repository with a bounce and a project with a version; Val is a member of both.
    const col = await buildUser(db, { name: 'Col' });
    const val = await buildUser(db, { name: 'Val' });
    const repo = await buildRepo(db, col.id, { name: 'Studio Sessions' });
    const bounce = await publishBounce(depsOf(t), repo.id, wav);
    const { project, branch } = await buildProject(db, col.id, { name: 'Night Drive' });
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: wav, processed: true, overrides: { message: 'First mix' } },
    );
    await addMember(db, { repoId: repo.id }, val.id, 'editor');
    await addMember(db, { projectId: project.id }, val.id, 'editor');

    const as = api(t, col.cookie);
    const collection = (await as.post('/api/collections', { name: 'EP' })).json<{ id: string }>();
    const items: string[] = [];
    for (const body of [{ bounce_id: bounce.id }, { version_id: version.id }]) {
      const added = await as.post(`/api/collections/${collection.id}/items`, body);
      expect(added.statusCode, added.body).toBe(201);
      items.push(added.json<{ id: string }>().id);
    }
    const [forBounce, forVersion] = await shareCollection(as, collection.id, {
      name: 'Pitch',
      recipients: [{ name: 'Ana' }, { name: 'Ben' }],
    });

    const owner = await listen(col.cookie);
    const other = await listen(val.cookie);

    // Each link's first play: the bounce's (on the repository), the version's (on the project).
    for (const [key, itemId] of [
      [forBounce?.key, items[0]],
      [forVersion?.key, items[1]],
    ] as const) {
      const played = await visitor(t).post(
        `/api/collection-links/${key}/items/${itemId}/receipts`,
        {
          event: 'play',
        },
      );
      expect(played.statusCode, played.body).toBe(204);
    }
    // A later event both hear (a comment on the version): events arrive in order, so what came
    // before it was either sent already or never will be.
    const commented = await as.post(`/api/versions/${version.id}/comments`, { content: 'Nice' });
    expect(commented.statusCode, commented.body).toBe(201);
    await owner.waitFor<Hint>((e) => e.kind === 'comment.posted');
    await other.waitFor<Hint>((e) => e.kind === 'comment.posted');
    expect((owner.events as Hint[]).map((e) => e.kind)).toEqual([
      'collection_link.first_played',
      'collection_link.first_played',
      'comment.posted',
    ]);
    expect(
      (owner.events as Hint[]).filter((e) => e.kind === 'collection_link.first_played'),
    ).toEqual([
      expect.objectContaining({ projectId: null, repoId: null }),
      expect.objectContaining({ projectId: null, repoId: null }),
    ]);
    expect((other.events as Hint[]).map((e) => e.kind)).toEqual(['comment.posted']);
  });
});
