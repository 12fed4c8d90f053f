/// <reference lib="dom" />
// audioTime below reads the <audio> element in the page, so this file needs the DOM types.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { seedUser, type Credentials } from './accounts';
import { toneWav } from './wav';

export function originOf(baseURL: string | undefined): string {
  if (!baseURL) throw new Error('baseURL must be set in playwright.config.ts');
  return new URL(baseURL).origin;
}

export interface OwnedTrack {
  credentials: Credentials;
  versionId: string;
  projectId: string;
  branchId: string;
  projectName: string;
}

/**
 * Seeds an owner, signs the page's browser context in through the API and uploads a new track
 * (a generated WAV), waiting until its processing has finished.
 */
export async function seedOwnerTrack(
  page: Page,
  baseURL: string | undefined,
  label: string,
  seconds = 20,
): Promise<OwnedTrack> {
  const origin = originOf(baseURL);
  const credentials = await seedUser(page.request, baseURL, label);
  const signIn = await page.request.post('/api/auth/sign-in/email', {
    data: credentials,
    headers: { origin },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);

  const upload = await page.request.post('/api/versions/upload', {
    multipart: {
      audioFile: { name: `${label}-take.wav`, mimeType: 'audio/wav', buffer: toneWav(seconds) },
    },
    headers: { origin },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const { versionId, projectId, branchId } = (await upload.json()) as {
    versionId: string;
    projectId: string;
    branchId: string;
  };
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`/api/versions/${versionId}/processing`);
        return ((await response.json()) as { status: string }).status;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe('completed');

  const version = await page.request.get(`/api/versions/${versionId}`);
  const { project } = (await version.json()) as { project: { name: string } };
  return { credentials, versionId, projectId, branchId, projectName: project.name };
}

export interface CreatedLink {
  id: string;
  hash: string;
  url: string;
  name: string;
  download_enabled: boolean;
  expires_at: string | null;
}

/** Creates a share link through the owner API with the given request context's session. */
export async function createShareLink(
  request: APIRequestContext,
  baseURL: string | undefined,
  versionId: string,
  body: { name?: string; download_enabled: boolean; expires_at?: string | null },
): Promise<CreatedLink> {
  const response = await request.post(`/api/versions/${versionId}/links`, {
    data: body,
    headers: { origin: originOf(baseURL) },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as CreatedLink;
}

export async function revokeShareLink(
  request: APIRequestContext,
  baseURL: string | undefined,
  linkId: string,
): Promise<void> {
  const response = await request.delete(`/api/links/${linkId}`, {
    headers: { origin: originOf(baseURL) },
  });
  expect(response.status(), await response.text()).toBe(204);
}

/** The global player's media element position, in seconds. */
export function audioTime(page: Page): Promise<number> {
  return page.evaluate(() => {
    const audio = document.querySelector('audio');
    if (!audio) throw new Error('no audio element');
    return audio.currentTime;
  });
}
