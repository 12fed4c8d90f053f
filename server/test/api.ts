import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { createApiClient, type ApiClient } from '@takes/contract';
import { injectFetch } from './inject-fetch';
import { cookiesFrom, type TestApp } from './test-app';

export const ORIGIN = 'http://localhost:8080';
let users = 0;

/** Signs up a fresh user and returns its cookie header. */
export async function newUser(t: Pick<TestApp, 'app'>, name = 'owner'): Promise<string> {
  const email = `${name}${Date.now()}${++users}@example.com`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    payload: { email, password: 'violet-mixdown-47' },
    headers: { origin: ORIGIN },
  });
  expect(response.statusCode, response.body).toBe(200);
  return cookiesFrom(response.headers['set-cookie']);
}

/** The typed API client, answering from the test app in-process, signed in with `cookie`. */
export function client(t: Pick<TestApp, 'app'>, cookie?: string): ApiClient {
  return createApiClient({
    fetch: injectFetch(t.app),
    headers: () => ({ origin: ORIGIN, ...(cookie ? { cookie } : {}) }),
  });
}

export function api(t: Pick<TestApp, 'app'>, cookie: string) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { cookie, origin: ORIGIN, ...headers },
    });
  return {
    get: (url: string, headers?: Record<string, string>) => call('GET', url, undefined, headers),
    post: (url: string, payload: object = {}) => call('POST', url, payload),
    put: (url: string, payload: object) => call('PUT', url, payload),
    patch: (url: string, payload: object) => call('PATCH', url, payload),
    delete: (url: string) => call('DELETE', url),
    /** POST /api/versions/upload as multipart, with the file (if any) and text fields. */
    upload: (
      file: { path: string; name?: string } | { content: Buffer; name: string } | undefined,
      fields: Record<string, string>,
    ) => {
      const { body, contentType } = multipartUpload(file, fields);
      return t.app.inject({
        method: 'POST',
        url: '/api/versions/upload',
        payload: body,
        headers: { cookie, origin: ORIGIN, 'content-type': contentType },
      });
    },
  };
}

/** The multipart body of POST /api/versions/upload: the text fields, then the file (if any). */
export function multipartUpload(
  file: { path: string; name?: string } | { content: Buffer; name: string } | undefined,
  fields: Record<string, string>,
): { body: Buffer; contentType: string } {
  const boundary = `----takes${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    const content = 'content' in file ? file.content : fs.readFileSync(file.path);
    const fileName = file.name ?? ('path' in file ? path.basename(file.path) : 'file');
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="audio_file"; filename="${fileName}"\r\nContent-Type: audio/wav\r\n\r\n`,
      ),
      content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(parts),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Uploads a file as a new version through the API (as the signed-in `cookie`) and waits until
 * its processing has completed; answers the version's id.
 */
export async function uploadProcessed(
  t: Pick<TestApp, 'app'>,
  cookie: string,
  file: string,
  fields: { project_id: string; branch_id: string; commit_message?: string },
): Promise<string> {
  const response = await api(t, cookie).upload(
    { path: file },
    { commit_message: path.basename(file), ...fields },
  );
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json<{ version_id: string }>().version_id;
  await eventually(
    async () =>
      (await api(t, cookie).get(`/api/versions/${id}/processing`)).json<{ status: string }>()
        .status === 'completed',
    60_000,
  );
  return id;
}

/**
 * Waits until a version's FLAC ('Lossless') is settled: made, or marked as impossible. It is made
 * after 'completed' (processing does not wait for it), so a test reading it waits here first.
 */
export async function losslessSettled(t: Pick<TestApp, 'deps'>, versionId: string): Promise<void> {
  await eventually(async () => {
    const row = await t.deps.database.db
      .selectFrom('versions')
      .select('renditions')
      .where('id', '=', versionId)
      .executeTakeFirst();
    return (row?.renditions ?? '').includes('"lossless"');
  }, 60_000);
}
