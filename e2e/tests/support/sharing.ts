/// <reference lib="dom" />
// audioTime below reads the <audio> element in the page, so this file needs the DOM types.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { seedUser, type Credentials } from './accounts';

/** A mono 16-bit PCM WAV of a sine tone, built in memory so no fixture file is needed. */
export function toneWav(seconds: number, frequency = 440, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const dataBytes = samples * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples; i++) {
    const value = Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 0.5 * 32767;
    wav.writeInt16LE(Math.round(value), 44 + i * 2);
  }
  return wav;
}

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
