import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import SqliteDatabase from 'better-sqlite3';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, newUser } from '../../test/api';
import { makeAudio } from '../../test/audio-fixtures';
import { builtServerEntry } from '../../test/cluster';
import {
  embeddedConfig,
  filesUnder,
  openDataFolder,
  sha256,
  type DataFolderApp,
} from '../../test/data-folder';
import { buildRepo, publishBounce } from '../../test/factories';
import { testDialect } from '../../test/test-database';
import { pruneRateLimitsJob } from '../modules/auth/jobs';
import { createBackup } from './backup';
import { BACKUP_FORMAT, OpsError } from './backup-format';
import { restoreBackup } from './restore';

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpsError);
  return (error as OpsError).message;
}

describe(`backup and restore (${testDialect()})`, () => {
  let workDir: string;

  beforeAll(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-backup-'));
  });
  afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it('refuses PostgreSQL and S3 setups, naming the tools to use instead', async () => {
    const postgres = embeddedConfig(path.join(workDir, 'pg'), {
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://takes@127.0.0.1:5432/takes',
    });
    const backupPg = await refusal(createBackup(postgres, path.join(workDir, 'pg.tar.gz')));
    expect(backupPg).toContain('this one uses PostgreSQL');
    expect(backupPg).toContain('pg_dump -Fc');
    expect(backupPg).toContain('pg_restore');
    const s3 = embeddedConfig(path.join(workDir, 's3'), {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'takes-audio',
    });
    const restoreS3 = await refusal(restoreBackup(s3, path.join(workDir, 'any.tar.gz')));
    expect(restoreS3).toContain('this one uses S3');
    expect(restoreS3).toMatch(/bucket versioning, or aws s3 sync \/ rclone sync/);
    expect(fs.existsSync(path.join(workDir, 'pg.tar.gz'))).toBe(false);
    expect(fs.existsSync(path.join(workDir, 's3'))).toBe(false);
  });

  // The embedded default is SQLite; on the PostgreSQL run only the refusal above applies.
  if (testDialect() === 'sqlite')
    describe('the embedded default', () => {
      let mainJs: string;
      let source: DataFolderApp;
      let restored: DataFolderApp | undefined;
      let sourceDir: string;
      let archive: string;
      let cookie: string;
      let fixtures: string[];
      const uploaded: {
        version_id: string;
        project_id: string;
        branch_id: string;
        file: string;
      }[] = [];

      beforeAll(async () => {
        sourceDir = path.join(workDir, 'source');
        archive = path.join(workDir, 'takes-backup.tar.gz');
        [mainJs, source, fixtures] = await Promise.all([
          builtServerEntry(),
          openDataFolder(sourceDir),
          // Three different recordings: 2, 3 and 4 seconds.
          Promise.all(
            [2, 3, 4].map((seconds) => makeAudio(workDir, 'wav', seconds, `take-${seconds}.wav`)),
          ),
        ]);
      }, 60_000);

      afterAll(async () => {
        await restored?.close();
        await source?.close();
      });

      async function upload(file: string, fields: Record<string, string>) {
        const response = await api(source, cookie).upload({ path: file }, fields);
        expect(response.statusCode, response.body).toBe(201);
        const body = response.json<{ version_id: string; project_id: string; branch_id: string }>();
        uploaded.push({ ...body, file });
        return body;
      }

      async function completed(instance: DataFolderApp, versionId: string): Promise<void> {
        await eventually(async () => {
          const version = await api(instance, cookie).get(`/api/versions/${versionId}`);
          const status = version.json<{ status: string }>().status;
          if (status === 'failed') throw new Error(`version ${versionId} failed: ${version.body}`);
          return status === 'completed';
        }, 30_000);
      }

      function runCli(args: string[], dataDir: string) {
        const child = spawn(process.execPath, [mainJs, ...args], {
          cwd: workDir,
          env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: dataDir },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
          child.once('exit', (code) => resolve({ code, stdout, stderr })),
        );
      }

      it('backs up a running Takes while it writes, and restores it into an empty folder that plays the same versions', async () => {
        cookie = await newUser(source);
        const [wav2, wav3, wav4] = fixtures as [string, string, string];
        const first = await upload(wav2, {});
        const sameBranch = {
          project_id: first.project_id,
          branch_id: first.branch_id,
          commit_message: 'Another take',
        };
        await upload(wav3, sameBranch);
        for (const { version_id: versionId } of uploaded) await completed(source, versionId);
        const owner = await source.runtime.database.db
          .selectFrom('users')
          .select('id')
          .executeTakeFirstOrThrow();
        const repo = await buildRepo(source.runtime.database.db, owner.id);
        const bounce = await publishBounce(
          { db: source.runtime.database.db, storage: source.runtime.storage },
          repo.id,
          wav2,
        );
        // A job some worker holds (with a lease an hour long) when the snapshot is taken.
        const now = new Date();
        await source.runtime.database.db
          .insertInto('jobs')
          .values({
            id: 'held-by-a-worker',
            name: pruneRateLimitsJob.name,
            payload: '{}',
            state: 'active',
            max_attempts: 3,
            retry_delay_ms: 1000,
            run_at: now.toISOString(),
            lease_expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
            lock_token: 'a-worker',
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
          })
          .execute();

        // The backup command runs in a process of its own while this server takes an upload.
        const [cli] = await Promise.all([
          runCli(['backup', archive], sourceDir),
          upload(wav4, sameBranch),
        ]);
        expect(cli.stderr).toBe('');
        expect(cli.code).toBe(0);
        const lines = cli.stdout.trim().split('\n');
        expect(lines[0]).toBe(`Taking a snapshot of the database ${sourceDir}/takes.sqlite`);
        expect(lines).toContain(`Secret key: included (${sourceDir}/secret.key)`);
        expect(lines.at(-1)).toMatch(new RegExp(`^Backup written to ${archive} \\(`));
        expect(cli.stdout).not.toContain(
          fs.readFileSync(path.join(sourceDir, 'secret.key'), 'utf8').trim(),
        );
        // Nothing but the archive is left beside it.
        expect(fs.readdirSync(workDir).filter((name) => name.includes('takes-backup'))).toEqual([
          'takes-backup.tar.gz',
        ]);

        const targetDir = path.join(workDir, 'restored');
        const said: string[] = [];
        const result = await restoreBackup(embeddedConfig(targetDir), archive, {
          say: (line) => said.push(line),
        });
        expect(result.manifest.format).toBe(BACKUP_FORMAT);
        // No worker runs in a restored folder: what the backup caught running is queued again.
        expect(said).toContainEqual(expect.stringMatching(/interrupted jobs? will run again$/));
        const held = new SqliteDatabase(path.join(targetDir, 'takes.sqlite'), { readonly: true });
        expect(
          held
            .prepare(`select state, lease_expires_at, lock_token from jobs where id = ?`)
            .get('held-by-a-worker'),
        ).toEqual({ state: 'queued', lease_expires_at: null, lock_token: null });
        held.close();
        expect(result.manifest.counts).toMatchObject({
          users: 1,
          projects: 1,
          repos: 1,
          bounces: 1,
        });
        expect(said.at(-1)).toMatch(/^Restored into .*restored: start Takes as usual/);
        // Every object restored is byte for byte the one the running server has.
        const sourceObjects = filesUnder(path.join(sourceDir, 'objects'));
        const restoredObjects = filesUnder(path.join(targetDir, 'objects'));
        expect(restoredObjects.size).toBe(result.objects.objects);
        for (const [key, digest] of restoredObjects)
          expect(sourceObjects.get(key), key).toBe(digest);

        restored = await openDataFolder(targetDir);
        await eventually(async () => {
          const job = await restored?.runtime.database.db
            .selectFrom('jobs')
            .select('state')
            .where('id', '=', 'held-by-a-worker')
            .executeTakeFirst();
          return job?.state === 'completed';
        }, 10_000);
        // The same session (its row and the restored secret key) signs the same person in.
        const before = api(source, cookie);
        const after = api(restored, cookie);
        expect((await after.get('/api/projects')).json()).toEqual(
          (await before.get('/api/projects')).json(),
        );
        const restoredVersions = (
          await after.get(`/api/versions/project/${first.project_id}/branch/${first.branch_id}`)
        ).json<{ id: string }[]>();
        const ids = restoredVersions.map((version) => version.id);
        // The two finished before the backup are there; the one uploaded during it may be too.
        expect(ids).toEqual(expect.arrayContaining(uploaded.slice(0, 2).map((u) => u.version_id)));
        for (const { version_id: versionId, file } of uploaded.filter((u) =>
          ids.includes(u.version_id),
        )) {
          // One uploaded mid-backup finishes processing in the restored folder: nothing was lost.
          await completed(restored, versionId);
          await completed(source, versionId);
          for (const quality of ['original', 'high', 'standard']) {
            const url = `/api/versions/${versionId}/stream?quality=${quality}`;
            const played = await after.get(url);
            expect(played.statusCode, played.body).toBe(200);
            expect(sha256(played.rawPayload)).toBe(sha256((await before.get(url)).rawPayload));
          }
          const download = await after.get(`/api/versions/${versionId}/download`);
          expect(sha256(download.rawPayload)).toBe(sha256(fs.readFileSync(file)));
        }
        const bounceUrl = `/api/repos/${repo.id}/bounces/${bounce.id}/stream?quality=high`;
        const bouncePlayed = await after.get(bounceUrl);
        expect(bouncePlayed.statusCode, bouncePlayed.body).toBe(200);
        expect(sha256(bouncePlayed.rawPayload)).toBe(
          sha256((await before.get(bounceUrl)).rawPayload),
        );
      }, 60_000);

      it('refuses a folder that already holds a database or objects, and changes nothing there', async () => {
        const file = path.join(workDir, 'refused.tar.gz');
        await createBackup(embeddedConfig(sourceDir), file);
        // The folder of the running server itself.
        const before = filesUnder(path.join(sourceDir, 'objects'));
        expect(await refusal(restoreBackup(embeddedConfig(sourceDir), file))).toBe(
          `restore needs an empty data folder, but ${sourceDir}/takes.sqlite already exists: ` +
            'move it away (or point DATA_DIR at a new folder), then restore again',
        );
        expect(filesUnder(path.join(sourceDir, 'objects'))).toEqual(before);

        const withObjects = path.join(workDir, 'objects-only');
        fs.mkdirSync(path.join(withObjects, 'objects', 'covers'), { recursive: true });
        fs.writeFileSync(path.join(withObjects, 'objects', 'covers', 'one.jpg'), 'cover');
        expect(await refusal(restoreBackup(embeddedConfig(withObjects), file))).toMatch(
          /restore needs an empty data folder, but .*objects-only\/objects already exists/,
        );
        expect([...filesUnder(withObjects).keys()]).toEqual(['objects/covers/one.jpg']);
      });

      it('refuses a truncated or damaged archive, a file that is no backup and a newer one, leaving nothing', async () => {
        const whole = fs.readFileSync(
          (await createBackup(embeddedConfig(sourceDir), path.join(workDir, 'whole.tar.gz'))).file,
        );
        const damagedCopy = Buffer.from(whole);
        const middle = Math.floor(whole.length / 2);
        damagedCopy.writeUInt8(damagedCopy.readUInt8(middle) ^ 0xff, middle);
        const cases: { name: string; content: Buffer | (() => Promise<void>); message: RegExp }[] =
          [
            {
              name: 'truncated.tar.gz',
              content: whole.subarray(0, Math.floor(whole.length * 0.8)),
              message: /is damaged or incomplete \(.+\); nothing was restored$/,
            },
            {
              name: 'damaged.tar.gz',
              content: damagedCopy,
              message: /is damaged or incomplete \(.+\); nothing was restored$/,
            },
            {
              name: 'take.wav',
              content: fs.readFileSync(fixtures[0] ?? ''),
              message: /take\.wav is not a Takes backup; nothing was restored$/,
            },
            {
              name: 'newer.tar.gz',
              content: () =>
                writeArchive(path.join(workDir, 'newer.tar.gz'), '9999-from-the-future'),
              message:
                /newer\.tar\.gz is from a newer Takes \(database migration 9999-from-the-future; this Takes knows up to \d{4}-[a-z-]+\): update Takes, then restore$/,
            },
            {
              name: 'other.tar.gz',
              content: () => writeArchive(path.join(workDir, 'other.tar.gz'), undefined),
              message: /other\.tar\.gz is not a Takes backup; nothing was restored$/,
            },
          ];
        for (const { name, content, message } of cases) {
          const file = path.join(workDir, name);
          if (typeof content === 'function') await content();
          else fs.writeFileSync(file, content);
          const target = path.join(workDir, `target-${name}`);
          expect(await refusal(restoreBackup(embeddedConfig(target), file)), name).toMatch(message);
          expect([...filesUnder(target).keys()], name).toEqual([]);
        }
      });

      it('does not replace an existing file unless told to with --force, nor write among the objects', async () => {
        const objectsDir = path.join(sourceDir, 'objects');
        expect(
          await refusal(createBackup(embeddedConfig(sourceDir), path.join(objectsDir, 'b.tar.gz'))),
        ).toBe(`Write the backup outside the objects folder ${objectsDir}`);
        const target = path.join(workDir, 'existing.tar.gz');
        fs.writeFileSync(target, 'an older backup');
        expect(await refusal(createBackup(embeddedConfig(sourceDir), target))).toBe(
          `${target} already exists: choose another name, or add --force to replace it`,
        );
        expect(fs.readFileSync(target, 'utf8')).toBe('an older backup');
        const replaced = await createBackup(embeddedConfig(sourceDir), target, { force: true });
        const versions = await source.runtime.database.db
          .selectFrom('versions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(replaced.manifest.counts.versions).toBe(versions.n);
        const again = path.join(workDir, 'again');
        await restoreBackup(embeddedConfig(again), target);
        expect(fs.existsSync(path.join(again, 'takes.sqlite'))).toBe(true);
      });
    });
});

/**
 * A gzipped tar made here: a Takes-like manifest of the given migration (or none at all, when
 * undefined) followed by an object.
 */
async function writeArchive(file: string, migration: string | undefined): Promise<void> {
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), fs.createWriteStream(file));
  if (migration) {
    const manifest = {
      format: BACKUP_FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      migration,
      database: { bytes: 0, sha256: '0'.repeat(64) },
      counts: {},
      secretKey: false,
    };
    pack.entry({ name: 'manifest.json' }, JSON.stringify(manifest));
  }
  pack.entry({ name: 'objects/originals/aa/take' }, 'bytes');
  pack.finalize();
  await written;
}
