import { expect, type Page } from '@playwright/test';
import { endpoints, publishBounceFile, uploadWith } from '@takes/contract';
import { apiAs, callExpecting } from './api';
import { toneWav } from './wav';

/** Repositories, commits and bounces through the typed API client, with the page's session cookie. */

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
  const { repo } = await callExpecting(apiAs(page, baseURL), 201, endpoints.repos.createRepo, {
    body: { name },
  });
  return repo;
}

/** A commit on a branch (the branch is created with its first commit). */
export async function createCommit(
  page: Page,
  baseURL: string | undefined,
  repoId: string,
  commit: { branch: string; message: string },
): Promise<SeededCommit> {
  const created = await callExpecting(apiAs(page, baseURL), 201, endpoints.repos.createRepoCommit, {
    params: { id: repoId },
    body: commit,
  });
  return created.commit;
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
  const api = apiAs(page, baseURL);
  const filename = `${target.title.replace(/\W+/g, '-')}.wav`;
  const wav = toneWav(target.seconds ?? 2, target.frequency ?? 440, 8000);

  const bounce = await publishBounceFile(api, {
    target: {
      repo_id: target.repoId,
      branch: target.branch,
      filename,
      content_type: 'audio/wav',
      size: wav.length,
    },
    title: target.title,
    upload: uploadWith(api, new Uint8Array(wav), 'application/octet-stream'),
  });

  await expect
    .poll(
      async () => {
        const current = await api.call(endpoints.repos.getBounce, {
          params: { id: target.repoId, bounceId: bounce.id },
        });
        return current.bounce.status;
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
