import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './cluster';

const run = promisify(execFile);

/**
 * A PostgreSQL server of the test's own (Debian's binaries, a temp data folder, a free loopback
 * port, trust auth), so a test can restart or stop it without touching the machine's shared one.
 */
export interface OwnPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  /** `pg_ctl restart -m fast`: every connection is cut, the server is back when this resolves. */
  restart(): Promise<void>;
  /** Stops it (fast: connections are cut) and, once `start` is called, brings it back. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-own-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  // initdb refuses to run as root: the server runs as the `postgres` user then.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await run('chown', ['postgres:postgres', dir]);
  const pg = async (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    try {
      await (asRoot
        ? run('runuser', ['-u', 'postgres', '--', command, ...args])
        : run(command, args));
    } catch (error) {
      const logged = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(`${tool} failed: ${String(error)}\n${logged}`);
    }
  };
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => pg('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', 'start']);
  await start();
  let running = true;
  const stop = async () => {
    if (!running) return;
    await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    running = false;
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () =>
      pg('pg_ctl', ['-D', data, '-l', log, '-o', options, '-m', 'fast', '-w', 'restart']),
    stop,
    start: async () => {
      if (running) return;
      await start();
      running = true;
    },
    close: async () => {
      await stop().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error(`no PostgreSQL server binaries under ${root}`);
  return path.join(root, versions[0], 'bin');
}
