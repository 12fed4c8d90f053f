import { PROJECT_MESSAGES, tagsSchema } from '@takes/contract';
import { Invalid, NotFound } from '../../errors';
import type { AccessPolicy } from '../access';

// What an upload of a version says besides its file, and the rules it must meet: one set for
// both ways it comes in, the multipart route's text fields (versions.routes.ts, UploadService)
// and a resumable upload's Upload-Metadata (resumable-uploads.service.ts).

export const UPLOAD_FIELD_NAMES = [
  'project_id',
  'branch_id',
  'commit_message',
  'tags',
  'project_name',
  'project_description',
  'is_private',
] as const;

export type UploadFieldName = (typeof UPLOAD_FIELD_NAMES)[number];

export type UploadFields = { [name in UploadFieldName]?: string | undefined };

/** The longest a field may be: a multipart field's bytes, an Upload-Metadata value. */
export const MAX_UPLOAD_FIELD = 64 * 1024;

export function isUploadField(name: string): name is UploadFieldName {
  return (UPLOAD_FIELD_NAMES as readonly string[]).includes(name);
}

/**
 * The names the fields (and the multipart route's file) had before the API spoke snake_case
 * (issue 42 §7). A client still sending one is told so: ignored, its version's project and
 * branch would be lost and the upload would become a new track.
 */
const FORMER_NAMES: ReadonlyMap<string, string> = new Map([
  ['projectId', 'project_id'],
  ['branchId', 'branch_id'],
  ['commitMessage', 'commit_message'],
  ['projectName', 'project_name'],
  ['projectDescription', 'project_description'],
  ['isPrivate', 'is_private'],
  ['audioFile', 'audio_file'],
]);

/** Refuses a field sent under its former name, saying its name now. */
export function refuseFormerName(name: string): void {
  const now = FORMER_NAMES.get(name);
  if (now) throw new Invalid(`Upload field '${name}' is now named '${now}'`);
}

/** Said for a branch the caller cannot upload to, or one not in the named project. */
export const BRANCH_MISSING = 'Project or branch not found';

export type UploadTarget =
  | { newTrack: true; tags: string[] }
  | { newTrack: false; projectId: string; branchId: string; tags: string[] };

/**
 * Where an upload goes, checked before its file is taken in: naming a project and a branch the
 * caller may upload to (with a message), a new version of that branch; naming neither, a new
 * track of the caller's own. Tags, when given, are a JSON list of words.
 */
export async function checkUploadTarget(
  access: AccessPolicy,
  userId: string,
  fields: UploadFields,
): Promise<UploadTarget> {
  const tags = parseTags(fields.tags);
  const { project_id: projectId, branch_id: branchId } = fields;
  if (!projectId && !branchId) return { newTrack: true, tags };
  if (!projectId) throw new Invalid(PROJECT_MESSAGES.projectRequired);
  if (!branchId) throw new Invalid(PROJECT_MESSAGES.branchRequired);
  if (!fields.commit_message?.trim()) throw new Invalid(PROJECT_MESSAGES.messageRequired);
  // An editor's version goes into the owner's project like the owner's own.
  const branch = await access.branch(userId, branchId, 'upload', BRANCH_MISSING);
  if (branch.projectId !== projectId) throw new NotFound(BRANCH_MISSING);
  return { newTrack: false, projectId, branchId, tags };
}

export function parseTags(raw: string | undefined): string[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Invalid('Tags must be a JSON list of words');
  }
  const result = tagsSchema.safeParse(parsed);
  if (!result.success) throw new Invalid('Tags must be a JSON list of words');
  return result.data;
}
