import fs from 'node:fs';
import path from 'node:path';
import { ORIGIN, eventually } from './api';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app';

/** A tus client reduced to its requests, against a listening test app. */
export function tus(base: string, cookie: string) {
  const headers = (extra: Record<string, string> = {}) => ({
    'tus-resumable': '1.0.0',
    origin: ORIGIN,
    cookie,
    ...extra,
  });
  const encode = (metadata: Record<string, string>) =>
    Object.entries(metadata)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
      .join(',');
  return {
    create: (size: number, metadata: Record<string, string>) =>
      fetch(`${base}/api/uploads`, {
        method: 'POST',
        headers: headers({ 'upload-length': String(size), 'upload-metadata': encode(metadata) }),
      }),
    patch: (url: string, offset: number, body: Buffer | ReadableStream<Uint8Array>) =>
      fetch(`${base}${url}`, {
        method: 'PATCH',
        headers: headers({
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        }),
        body,
        ...(body instanceof Buffer ? {} : { duplex: 'half' }),
      }),
    head: (url: string) => fetch(`${base}${url}`, { method: 'HEAD', headers: headers() }),
  };
}

/** A guest's tus requests: no account, the link's unlock cookie if any. */
export function guestTus(base: string, cookie = '') {
  const headers = (extra: Record<string, string> = {}) => ({
    'tus-resumable': '1.0.0',
    origin: ORIGIN,
    ...(cookie ? { cookie } : {}),
    ...extra,
  });
  const encode = (metadata: Record<string, string>) =>
    Object.entries(metadata)
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
  return {
    create: (size: number, metadata: Record<string, string>) =>
      fetch(`${base}/api/guest-uploads`, {
        method: 'POST',
        headers: headers({ 'upload-length': String(size), 'upload-metadata': encode(metadata) }),
      }),
    patch: (url: string, offset: number, body: Buffer) =>
      fetch(`${base}${url}`, {
        method: 'PATCH',
        headers: headers({
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        }),
        body,
      }),
  };
}

export async function listening(
  options: TestAppOptions = {},
): Promise<{ t: TestApp; base: string }> {
  const t = await createTestApp(options);
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, base: address };
}

/** Every file under a folder (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Starts the app's job worker and waits until the version's processing has completed. */
export async function processed(t: TestApp, versionId: string): Promise<void> {
  await t.deps.jobs.startWorking();
  await eventually(async () => {
    const version = await t.deps.database.db
      .selectFrom('versions')
      .select('status')
      .where('id', '=', versionId)
      .executeTakeFirstOrThrow();
    return version.status === 'completed';
  });
}
