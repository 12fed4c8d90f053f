import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, type ClusterProcess } from '../../test/cluster';
import { buildProject, buildUser, buildVersion, depsOf } from '../../test/factories';
import { openSse, type SseStream } from '../../test/sse';
import { testDialect } from '../../test/test-database';
import { loadConfig } from '../config';
import { openRuntime, type Runtime } from '../runtime';

/**
 * Live updates across real `serve` processes (the built server, as deployed) on one database:
 * on PostgreSQL an event recorded by one process reaches the streams of every other within 2 s.
 */
describe(`live updates across serve processes (${testDialect()})`, () => {
  let cluster: Cluster;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    cluster = await Cluster.create('live', { dialect: testDialect(), queue: 'embedded' });
  }, 60_000);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await cluster.close();
  });

  function environment(name: string): NodeJS.ProcessEnv {
    return cluster.environment(name);
  }

  async function serve(name: string): Promise<number> {
    const proc: ClusterProcess = await cluster.start(name, 'serve');
    await proc.ready();
    return proc.port ?? 0;
  }

  async function subscribe(port: number, cookie?: string): Promise<SseStream> {
    const stream = await openSse(`http://127.0.0.1:${port}/api/events`, cookie ? { cookie } : {});
    streams.push(stream);
    return stream;
  }

  it('a built serve process streams /api/events: 401 signed out, the retry hint signed in', async () => {
    const port = await serve('serve-a');
    const runtime = await openRuntime(
      loadConfig({ ...environment('test-runtime'), PORT: '1' }),
      pino({ level: 'silent' }),
    );
    try {
      const owner = await buildUser(runtime.database.db, { name: 'Olive Owner' });
      expect((await subscribe(port)).status).toBe(401);
      const stream = await subscribe(port, owner.cookie);
      expect(stream.status).toBe(200);
      await stream.waitForLine((line) => line === 'retry: 3000');
    } finally {
      await runtime.close();
    }
  }, 90_000);

  if (testDialect() === 'postgres') {
    it('a comment posted through one serve process reaches a subscriber of another within 2 s', async () => {
      const portA =
        cluster.processes.find((p) => p.name === 'serve-a')?.port ?? (await serve('serve-a'));
      const portB = await serve('serve-b');
      // The test's own runtime of the same installation only sets the rows up.
      const runtime: Runtime = await openRuntime(
        loadConfig({ ...environment('test-runtime'), PORT: '1' }),
        pino({ level: 'silent' }),
      );
      try {
        const { db } = runtime.database;
        const owner = await buildUser(db, { name: 'Olive Owner' });
        const { project, branch } = await buildProject(db, owner.id);
        const version = await buildVersion(depsOf({ deps: runtime }), {
          projectId: project.id,
          branchId: branch.id,
        });
        const onA = await subscribe(portA, owner.cookie);
        const onB = await subscribe(portB, owner.cookie);
        expect([onA.status, onB.status]).toEqual([200, 200]);

        const started = Date.now();
        const posted = await fetch(
          `http://127.0.0.1:${portA}/api/versions/${version.id}/comments`,
          {
            method: 'POST',
            headers: {
              cookie: owner.cookie,
              origin: `http://127.0.0.1:${portA}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ content: 'Across processes', timestamp: 5 }),
          },
        );
        expect(posted.status, await posted.clone().text()).toBe(201);
        await posted.arrayBuffer();
        const expected = {
          type: 'activity',
          kind: 'comment.posted',
          projectId: project.id,
          repoId: null,
          versionId: version.id,
        };
        const theComment = (e: { kind?: string; versionId?: string | null }) =>
          e.kind === 'comment.posted' && e.versionId === version.id;
        expect(await onB.waitFor(theComment, 2000)).toMatchObject(expected);
        expect(await onA.waitFor(theComment, 2000)).toMatchObject(expected);
        expect(Date.now() - started).toBeLessThan(2000);
      } finally {
        await runtime.close();
      }
    }, 120_000);
  }
});
