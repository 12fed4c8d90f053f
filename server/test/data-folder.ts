import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openRuntime, type Runtime } from '../src/runtime';

/** A whole Takes on a data folder, as `serve` opens it: the embedded default, jobs running. */
export interface DataFolderApp {
  app: FastifyInstance;
  runtime: Runtime;
  close(): Promise<void>;
}

/** The embedded default's configuration for a data folder, as `serve` would read it. */
export function embeddedConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    JOB_POLL_INTERVAL_MS: '50',
    ...env,
  });
}

export async function openDataFolder(dataDir: string): Promise<DataFolderApp> {
  const runtime = await openRuntime(embeddedConfig(dataDir), pino({ level: 'silent' }));
  const app = await buildApp(runtime, { services: runtime.services });
  await app.ready();
  await runtime.jobs.startWorking();
  return {
    app,
    runtime,
    close: async () => {
      await app.close();
      await runtime.close();
    },
  };
}

/** A digest to compare bytes by (vitest's deep equality is very slow on megabytes). */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Every file under a folder, as relative path → SHA-256 of its bytes. */
export function filesUnder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!fs.existsSync(dir)) return files;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, full), sha256(fs.readFileSync(full)));
  }
  return files;
}
