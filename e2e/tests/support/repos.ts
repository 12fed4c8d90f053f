import { expect, type Page } from '@playwright/test';
import { toneWav } from './wav';

/** Repositories, commits and bounces through the HTTP API, with the page's session cookie. */

function originHeader(baseURL: string | undefined): Record<string, string> {
  if (!baseURL) throw new Error('baseURL must be set in playwright.config.ts');
  return { origin: new URL(baseURL).origin };
}

export interface SeededRepo {
  id: string;
  name: string;
  cover_url: string | null;
  pull_url: string;
}

export interface SeededCommit {
  sha: string;
  message: string | null;
  branch: string;
}

export interface SeededBounce {
  id: string;
  title: string;
  commit_sha: string;
  branch: string;
  status: 'processing' | 'completed' | 'failed';
}

export async function createRepo(
  page: Page,
  baseURL: string | undefined,
  name: string,
): Promise<SeededRepo> {
  const response = await page.request.post('/api/repos', {
    data: { name },
    headers: originHeader(baseURL),
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { repo: SeededRepo }).repo;
}

/** A commit on a branch (the branch is created with its first commit). */
export async function createCommit(
  page: Page,
  baseURL: string | undefined,
  repoId: string,
  commit: { branch: string; message: string },
): Promise<SeededCommit> {
  const response = await page.request.post(`/api/repos/${repoId}/commits`, {
    data: commit,
    headers: originHeader(baseURL),
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { commit: SeededCommit }).commit;
}

/**
 * Publishes a generated WAV as a bounce the way the desktop app does (publish, PUT the bytes with
 * the upload token, complete) and waits until its processing has finished.
 */
export async function publishBounce(
  page: Page,
  baseURL: string | undefined,
  target: { repoId: string; branch: string; title: string; seconds?: number; frequency?: number },
): Promise<SeededBounce> {
  const headers = originHeader(baseURL);
  const filename = `${target.title.replace(/\W+/g, '-')}.wav`;
  const wav = toneWav(target.seconds ?? 2, target.frequency ?? 440, 8000);

  const publish = await page.request.post('/api/bounces/publish', {
    data: { repoId: target.repoId, branch: target.branch, filename, contentType: 'audio/wav' },
    headers,
  });
  expect(publish.status(), await publish.text()).toBe(201);
  const { uploadId, uploadUrl, uploadToken } = (await publish.json()) as {
    uploadId: string;
    uploadUrl: string;
    uploadToken: string;
  };

  const put = await page.request.put(uploadUrl, {
    data: wav,
    headers: { 'x-upsert-token': uploadToken, 'content-type': 'application/octet-stream' },
  });
  expect(put.status(), await put.text()).toBe(200);

  const complete = await page.request.post('/api/bounces/complete', {
    data: {
      repoId: target.repoId,
      branch: target.branch,
      title: target.title,
      filename,
      mime: 'audio/wav',
      size: wav.length,
      uploadId,
    },
    headers,
  });
  expect(complete.status(), await complete.text()).toBe(201);
  const { bounce } = (await complete.json()) as { bounce: SeededBounce };

  await expect
    .poll(
      async () => {
        const response = await page.request.get(`/api/repos/${target.repoId}/bounces/${bounce.id}`);
        return ((await response.json()) as { bounce: SeededBounce }).bounce.status;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe('completed');
  return bounce;
}

/** A 2×2 red PNG, for cover uploads. */
export function tinyPng(): Buffer {
  return Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
    'base64',
  );
}
