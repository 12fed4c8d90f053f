import type { PublicProject, PublicVersion } from '@takes/contract';
import { NotFound } from '../../errors';
import { NOT_FOUND, type AccessPolicy } from '../access';
import {
  parseJson,
  pickAudio,
  type Renditions,
  type StoredAudio,
  type WaveformInfo,
} from '../audio';
import { listenerName, UNKNOWN_PERSON } from '../people';
import type { PublicRepo, PublicVersionRow } from './public.repo';

/** What the public stream may send now (the standard rendition), or that it is still being made. */
export type PublicAudio =
  { ready: true; audio: StoredAudio; listed: boolean } | { ready: false; listed: boolean };

/**
 * Public projects' read-only pages, for anyone, signed out included: name, description, the
 * owner's name, branches and versions, and the standard rendition to play. Never an original, a
 * download, a comment, a link or a tag. Every request asks the access policy first, so a project
 * made private is gone on the next request.
 */
export class PublicService {
  constructor(private readonly deps: { access: AccessPolicy; repo: PublicRepo }) {}

  async project(projectId: string): Promise<PublicProject> {
    await this.deps.access.publicProject(projectId);
    const project = await this.deps.repo.project(projectId);
    if (!project) throw new NotFound(NOT_FOUND.project);
    const branches = await this.deps.repo.branches(projectId);
    const versions = await this.deps.repo.versions(branches.map((b) => b.id));
    return {
      id: project.id,
      name: project.name,
      description: project.description,
      // Anyone reads a public page: never any part of the owner's address.
      owner_name:
        listenerName({
          display_name: project.owner_display_name,
          user_name: project.owner_user_name,
        }) ?? UNKNOWN_PERSON,
      listed: project.listed === 1,
      updated_at: project.updated_at,
      branches: branches.map((b) => ({
        id: b.id,
        name: b.name,
        is_default: b.is_default === 1,
        versions: versions.filter((v) => v.branch_id === b.id).map(toPublicVersion),
      })),
    };
  }

  /**
   * The standard rendition of a Public project's version: 'not ready' while processing makes it,
   * NotFound when it never will be (failed, or a version without stored audio).
   */
  async audio(versionId: string): Promise<PublicAudio> {
    await this.deps.access.publicVersion(versionId);
    const version = await this.deps.repo.version(versionId);
    if (!version) throw new NotFound(NOT_FOUND.version);
    const listed = version.listed === 1;
    if (parseJson<Renditions>(version.renditions, {}).standard)
      return { ready: true, audio: pickAudio(version, 'standard'), listed };
    if (version.status === 'processing') return { ready: false, listed };
    throw new NotFound('This quality is not available');
  }

  /** Whether the page `/projects/{projectId}` may be indexed: the project is Public and listed. */
  async indexable(projectId: string): Promise<boolean> {
    try {
      await this.deps.access.publicProject(projectId);
    } catch (error) {
      if (error instanceof NotFound) return false;
      throw error;
    }
    return (await this.deps.repo.listed(projectId))?.listed === 1;
  }
}

function toPublicVersion(row: PublicVersionRow): PublicVersion {
  const waveform = parseJson<WaveformInfo | null>(row.waveform, null);
  return {
    id: row.id,
    version_number: row.version_number,
    message: row.message,
    created_at: row.created_at,
    status: row.status,
    waveform_data: waveform ? { peaks: waveform.overview, duration: waveform.duration } : null,
  };
}
