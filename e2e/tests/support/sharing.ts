/// <reference lib="dom" />
// audioTime below reads the <audio> element in the page, so this file needs the DOM types.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { endpoints } from '@takes/contract';
import { seedUser, type Credentials } from './accounts';
import { apiAs, apiWith, callExpecting } from './api';
import { toneWav } from './wav';

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
  const api = apiAs(page, baseURL);
  const credentials = await seedUser(page.request, baseURL, label);
  await callExpecting(api, 200, endpoints.auth.signInWithEmail, { body: credentials });

  const form = new FormData();
  form.append(
    'audio_file',
    new Blob([new Uint8Array(toneWav(seconds))], { type: 'audio/wav' }),
    `${label}-take.wav`,
  );
  const {
    version_id: versionId,
    project_id: projectId,
    branch_id: branchId,
  } = await callExpecting(api, 201, endpoints.versions.uploadVersion, { form });
  await expect
    .poll(
      async () => {
        const processing = await api.call(endpoints.versions.getVersionProcessing, {
          params: { versionId },
        });
        return processing.status;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe('completed');

  const { project } = await api.call(endpoints.versions.getVersion, { params: { versionId } });
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

/** What the owner API takes to make a share link. */
export interface ShareLinkBody {
  name?: string;
  download_enabled: boolean;
  expires_at?: string | null;
}

/** Creates a share link through the owner API with the given request context's session. */
export async function createShareLink(
  request: APIRequestContext,
  baseURL: string | undefined,
  versionId: string,
  body: ShareLinkBody,
): Promise<CreatedLink> {
  return callExpecting(apiWith(request, baseURL), 201, endpoints.sharing.createShareLink, {
    params: { versionId },
    body,
  });
}

/**
 * A share link's usual start: an owner's processed track (seedOwnerTrack, `seconds` long, signed
 * in on the page's context) and a share link to it made with that session.
 */
export async function seedSharedTrack(
  page: Page,
  baseURL: string | undefined,
  seed: { label: string; seconds?: number; link: ShareLinkBody },
): Promise<{ owner: OwnedTrack; link: CreatedLink }> {
  const owner = await seedOwnerTrack(page, baseURL, seed.label, seed.seconds);
  const link = await createShareLink(page.request, baseURL, owner.versionId, seed.link);
  return { owner, link };
}

export async function revokeShareLink(
  request: APIRequestContext,
  baseURL: string | undefined,
  linkId: string,
): Promise<void> {
  await callExpecting(apiWith(request, baseURL), 204, endpoints.sharing.revokeShareLink, {
    params: { linkId },
  });
}

/** The global player's media element position, in seconds. */
export function audioTime(page: Page): Promise<number> {
  return page.evaluate(() => {
    const audio = document.querySelector('audio');
    if (!audio) throw new Error('no audio element');
    return audio.currentTime;
  });
}
