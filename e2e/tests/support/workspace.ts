import { expect, test, type Page } from '@playwright/test';
import { endpoints, type ApiClient } from '@takes/contract';
import { seedUser, type Credentials } from './accounts';
import { apiAs, callExpecting } from './api';
import { toneWav } from './wav';

/** A short 440 Hz tone as a WAV file. */
export function generateWav(seconds = 1, sampleRate = 8000): Buffer {
  return toneWav(seconds, 440, sampleRate);
}

/**
 * Seeds a user and opens the given protected path signed in. The sign-up goes through the page's
 * own request context, whose session cookie the page then shares.
 */
export async function signedInAt(
  page: Page,
  baseURL: string | undefined,
  label: string,
  path = '/dashboard',
): Promise<Credentials> {
  const credentials = await seedUser(page.request, baseURL, label);
  await page.goto(path);
  await expect(page).toHaveURL(path);
  return credentials;
}

interface CreatedProject {
  id: string;
  name: string;
}

/** Creates a project through the API with the page's session (shared cookies). */
export async function createProject(
  page: Page,
  baseURL: string | undefined,
  name: string,
): Promise<CreatedProject> {
  return callExpecting(apiAs(page, baseURL), 201, endpoints.projects.createProject, {
    body: { name },
  });
}

interface BranchRow {
  id: string;
  name: string;
  is_default: boolean;
}

export async function branchesOf(page: Page, projectId: string): Promise<BranchRow[]> {
  // The configured baseURL: this helper's callers do not pass theirs.
  const api = apiAs(page, test.info().project.use.baseURL);
  return api.call(endpoints.projects.listBranches, { params: { projectId } });
}

export interface UploadedVersion {
  versionId: string;
  projectId: string;
  branchId: string;
}

/** Uploads a generated WAV as a new version and waits until its processing is done. */
export async function uploadVersion(
  page: Page,
  baseURL: string | undefined,
  target: {
    projectId: string;
    branchId: string;
    message: string;
    tags?: string[];
    /** How long the take is (1 second unless given). */
    seconds?: number;
  },
): Promise<UploadedVersion> {
  const api = apiAs(page, baseURL);
  const form = new FormData();
  form.append(
    'audio_file',
    new Blob([new Uint8Array(generateWav(target.seconds))], { type: 'audio/wav' }),
    'take.wav',
  );
  form.append('project_id', target.projectId);
  form.append('branch_id', target.branchId);
  form.append('commit_message', target.message);
  if (target.tags?.length) form.append('tags', JSON.stringify(target.tags));
  const answer = await callExpecting(api, 201, endpoints.versions.uploadVersion, { form });
  const uploaded: UploadedVersion = {
    versionId: answer.version_id,
    projectId: answer.project_id,
    branchId: answer.branch_id,
  };
  await expect
    .poll(
      async () => {
        const processing = await api.call(endpoints.versions.getVersionProcessing, {
          params: { versionId: uploaded.versionId },
        });
        return processing.status;
      },
      { timeout: 30_000 },
    )
    .toBe('completed');
  return uploaded;
}

/**
 * Uploads WAV bytes through the API as a version: a new track (`project_name`) or the next
 * version of a branch (`project_id`, `branch_id`, `commit_message`). Answers the upload's answer.
 */
export function uploadWavThrough(
  api: ApiClient,
  wav: Buffer,
  fields: Record<string, string>,
  fileName = 'mix.wav',
) {
  const form = new FormData();
  form.append('audio_file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), fileName);
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return callExpecting(api, 201, endpoints.versions.uploadVersion, { form });
}

/** Waits until every one of the versions has finished processing. */
export async function processedAll(api: ApiClient, versionIds: string[]): Promise<void> {
  for (const versionId of versionIds)
    await expect
      .poll(
        async () =>
          (await api.call(endpoints.versions.getVersionProcessing, { params: { versionId } }))
            .status,
        { timeout: 60_000, intervals: [500] },
      )
      .toBe('completed');
}
