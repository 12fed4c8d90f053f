import { expect, type Page } from '@playwright/test';
import { seedUser, type Credentials } from './accounts';
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

function originHeader(baseURL: string | undefined): Record<string, string> {
  if (!baseURL) throw new Error('baseURL must be set in playwright.config.ts');
  return { origin: new URL(baseURL).origin };
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
  const response = await page.request.post('/api/projects', {
    data: { name },
    headers: originHeader(baseURL),
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as CreatedProject;
}

interface BranchRow {
  id: string;
  name: string;
  is_default: boolean;
}

export async function branchesOf(page: Page, projectId: string): Promise<BranchRow[]> {
  const response = await page.request.get(`/api/projects/${projectId}/branches`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as BranchRow[];
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
  target: { projectId: string; branchId: string; message: string; tags?: string[] },
): Promise<UploadedVersion> {
  const response = await page.request.post('/api/versions/upload', {
    headers: originHeader(baseURL),
    multipart: {
      audioFile: { name: 'take.wav', mimeType: 'audio/wav', buffer: generateWav() },
      projectId: target.projectId,
      branchId: target.branchId,
      commitMessage: target.message,
      ...(target.tags?.length ? { tags: JSON.stringify(target.tags) } : {}),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const uploaded = (await response.json()) as UploadedVersion;
  await expect
    .poll(
      async () => {
        const status = await page.request.get(`/api/versions/${uploaded.versionId}/processing`);
        return ((await status.json()) as { status: string }).status;
      },
      { timeout: 30_000 },
    )
    .toBe('completed');
  return uploaded;
}
