import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, VersionsTable } from '../src/db/schema';

/** A live upload link (no password) of a project's or a repository's branch. */
async function buildUploadLink(
  db: Kysely<Database>,
  place: { project_id: string; branch_id: string } | { repo_id: string; repo_branch_id: string },
  ownerId: string,
  name: string,
): Promise<{ id: string; key: string }> {
  const now = new Date().toISOString();
  const link = {
    id: randomUUID(),
    key: `ul${randomUUID().replace(/-/g, '').slice(0, 20)}`,
  };
  await db
    .insertInto('upload_links')
    .values({
      ...link,
      ...place,
      created_by: ownerId,
      name,
      message: null,
      password_hash: null,
      max_files: 10,
      max_bytes: 1024 * 1024 * 1024,
      expires_at: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
      revoked_at: null,
      created_at: now,
    })
    .execute();
  return link;
}

/**
 * A world's file requests: a live upload link of the project's default branch (no password)
 * and a processed guest file sent through it (the world version's audio, no renditions), and a
 * live upload link of the repository's branch.
 */
export async function buildGuestUploads(
  db: Kysely<Database>,
  project: { id: string; branchId: string; ownerId: string },
  version: VersionsTable,
  repo: { id: string; branchId: string },
): Promise<{
  uploadLink: { id: string; key: string };
  guestFile: { id: string };
  repoUploadLink: { id: string; key: string };
}> {
  const now = new Date().toISOString();
  const link = await buildUploadLink(
    db,
    { project_id: project.id, branch_id: project.branchId },
    project.ownerId,
    'Bass takes',
  );
  const repoUploadLink = await buildUploadLink(
    db,
    { repo_id: repo.id, repo_branch_id: repo.branchId },
    project.ownerId,
    'Masters',
  );
  const guestFile = { id: randomUUID() };
  await db
    .insertInto('guest_files')
    .values({
      id: guestFile.id,
      link_id: link.id,
      link_name: 'Bass takes',
      project_id: project.id,
      branch_id: project.branchId,
      guest_name: 'Sam Session',
      guest_email: null,
      original_key: version.original_key ?? '',
      original_name: 'take.wav',
      original_size: version.original_size ?? 0,
      original_format: version.original_format ?? 'wav',
      status: 'completed',
      error: null,
      metadata: version.metadata,
      waveform: null,
      loudness: null,
      renditions: '{}',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { uploadLink: link, guestFile, repoUploadLink };
}
