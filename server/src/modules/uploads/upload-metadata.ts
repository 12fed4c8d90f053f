import { Invalid } from '../../errors';
import {
  MAX_UPLOAD_FIELD,
  refuseFormerName,
  UPLOAD_FIELD_NAMES,
  type UploadFields,
} from './upload-fields';

/** What a resumable upload becomes, as its Upload-Metadata says. */
export type UploadMetadataTarget =
  | { kind: 'version'; filename: string; fields: UploadFields }
  | {
      kind: 'bounce';
      filename: string;
      repoId: string;
      branch: string;
      commitSha?: string | undefined;
      title?: string | undefined;
      contentType?: string | undefined;
    };

/**
 * What the client's Upload-Metadata asks for, checked: text without NUL, within the length of
 * a multipart field; a version's fields are the multipart route's (upload-fields.ts).
 */
export function targetOf(
  metadata: Record<string, string | null> | undefined,
): UploadMetadataTarget {
  const text = (name: string): string | undefined => {
    const value = metadata?.[name];
    if (value === null || value === undefined) return undefined;
    if (value.length > MAX_UPLOAD_FIELD || value.includes('\u0000'))
      throw new Invalid(`Upload metadata '${name}' is not valid`);
    return value;
  };
  const filename = text('filename')?.trim();
  if (!filename) throw new Invalid('Upload metadata must name the file (filename)');
  const kind = text('kind') ?? 'version';
  if (kind === 'bounce') {
    // Uploads begun before the names were snake_case (and CLIs of that time) say repoId and
    // commitSha; a tus upload keeps the metadata it was made with, so both are read.
    const repoId = text('repo_id') ?? text('repoId');
    const branch = text('branch')?.trim();
    if (!repoId) throw new Invalid('Upload metadata must name the repository (repo_id)');
    if (!branch) throw new Invalid('Upload metadata must name the branch (branch)');
    return {
      kind,
      filename,
      repoId,
      branch,
      commitSha: text('commit_sha') ?? text('commitSha'),
      title: text('title'),
      contentType: text('filetype'),
    };
  }
  if (kind !== 'version') throw new Invalid(`Unknown upload kind '${kind}'`);
  for (const name of Object.keys(metadata ?? {})) refuseFormerName(name);
  const fields: UploadFields = {};
  for (const name of UPLOAD_FIELD_NAMES) fields[name] = text(name);
  return { kind, filename, fields };
}
