import { randomUUID } from 'node:crypto';
import { PROJECT_MESSAGES, type ProcessingResponse, type Version } from '@takes/contract';
import type { Clock } from '../../clock';
import type { VersionsTable } from '../../db/schema';
import { AppError, Internal, NotFound } from '../../errors';
import type { ProjectsService } from '../projects/projects.service';
import {
  downloadOf,
  parseJson,
  pickAudio,
  type Quality,
  type Renditions,
  type StoredAudio,
  type WaveformInfo,
} from '../audio';
import { toVersion } from './version-view';
import type { VersionsRepo } from './versions.repo';
import type { AccessPolicy } from '../access';

export interface VersionsDeps {
  access: AccessPolicy;
  repo: VersionsRepo;
  clock: Clock;
  projects: ProjectsService;
}

/** Versions of a project's branches: reading, creating from a URL, deleting, and their audio. */
export class VersionsService {
  private readonly repo: VersionsRepo;

  constructor(private readonly deps: VersionsDeps) {
    this.repo = deps.repo;
  }

  async getWithProject(ownerId: string, versionId: string) {
    const found = await this.repo.findWithProject(ownerId, versionId);
    if (!found) throw new NotFound('Version not found');
    const { project } = found;
    return {
      ...toVersion(found.version),
      project: {
        id: project.id,
        name: project.name,
        description: project.description,
        is_private: project.is_private === 1,
        created_at: project.created_at,
        updated_at: project.updated_at,
        owner_id: project.owner_id,
        listed: project.listed === 1,
        role: 'owner' as const,
      },
    };
  }

  async listForBranch(ownerId: string, projectId: string, branchId: string): Promise<Version[]> {
    const branch = await this.deps.projects.findOwnedBranch(ownerId, branchId);
    if (!branch || branch.project_id !== projectId) throw new NotFound('Branch not found');
    return this.ofBranches([branchId]);
  }

  /**
   * The versions of these branches, newest number first. Public for the projects module's
   * branch listing, so the query lives once, here.
   */
  async ofBranches(branchIds: string[]): Promise<Version[]> {
    return (await this.repo.listForBranches(branchIds)).map(toVersion);
  }

  async recent(ownerId: string, limit: number) {
    const rows = await this.repo.recent(ownerId, limit);
    return rows.map((r) => ({
      id: r.id,
      title: `${r.project_name} - Version ${r.version_number}`,
      message: r.message,
      created_at: r.created_at,
      project_id: r.project_id,
      project_name: r.project_name,
    }));
  }

  async delete(ownerId: string, versionId: string): Promise<void> {
    await this.repo.transaction(async (trx) => {
      const version = await this.repo.find(ownerId, versionId, trx);
      if (!version) throw new NotFound('Version not found');
      await this.repo.delete(versionId, trx);
      await this.deps.projects.touch(version.project_id, this.now(), trx);
      await this.deps.projects.cleanUpAfter([version], trx);
    });
  }

  /** POST /versions/create: a version pointing at a file URL given by the client. */
  async createFromUrl(
    ownerId: string,
    input: {
      project_id: string;
      branch_id: string;
      message: string;
      file_url: string;
      tags?: string[] | undefined;
    },
  ): Promise<Version> {
    const id = randomUUID();
    const now = this.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.repo.transaction(async (trx) => {
          const branch = await this.deps.projects.findOwnedBranch(ownerId, input.branch_id, trx);
          if (!branch || branch.project_id !== input.project_id)
            throw new NotFound('Project or branch not found');
          await this.repo.insert(
            {
              id,
              project_id: branch.project_id,
              branch_id: branch.id,
              version_number: await this.repo.nextNumber(branch.id, trx),
              message: input.message || 'New version',
              tags: JSON.stringify(input.tags ?? []),
              original_key: null,
              original_name: null,
              original_size: null,
              original_format: null,
              status: 'completed',
              error: null,
              metadata: null,
              waveform: null,
              loudness: null,
              renditions: '{}',
              file_url: input.file_url,
              created_at: now,
              updated_at: now,
            },
            trx,
          );
          await this.deps.projects.touch(branch.project_id, now, trx);
        });
        break;
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (attempt >= 5) throw new Internal(PROJECT_MESSAGES.createVersionFailed);
      }
    }
    const row = await this.repo.find(ownerId, id);
    if (!row) throw new Internal(PROJECT_MESSAGES.createVersionFailed);
    return toVersion(row);
  }

  async processing(ownerId: string, versionId: string): Promise<ProcessingResponse> {
    const v = await this.owned(ownerId, versionId);
    const renditions = parseJson<Renditions>(v.renditions, {});
    const hasMetadata = v.metadata !== null;
    const hasWaveform = v.waveform !== null;
    const hasOriginal = v.original_key !== null;
    const stages = [
      hasMetadata,
      hasOriginal,
      !!renditions.high,
      !!renditions.standard,
      hasWaveform,
    ];
    const done = v.status === 'completed';
    return {
      status: v.status,
      progressPercentage: done
        ? 100
        : Math.round((stages.filter(Boolean).length / stages.length) * 100),
      hasMetadata,
      hasWaveform,
      processingComplete: done,
      error: v.error,
      qualityProgress: {
        original: { available: hasOriginal, fileSize: v.original_size, format: v.original_format },
        high: { available: !!renditions.high, fileSize: renditions.high?.size ?? null },
        standard: { available: !!renditions.standard, fileSize: renditions.standard?.size ?? null },
      },
    };
  }

  async qualities(ownerId: string, versionId: string) {
    const v = await this.owned(ownerId, versionId);
    const renditions = parseJson<Renditions>(v.renditions, {});
    const qualities: Partial<Record<Quality, { fileSize: number; format: string }>> = {};
    if (v.original_key)
      qualities.original = {
        fileSize: v.original_size ?? 0,
        format: v.original_format ?? 'unknown',
      };
    if (renditions.high) qualities.high = { fileSize: renditions.high.size, format: 'mp3' };
    if (renditions.standard)
      qualities.standard = { fileSize: renditions.standard.size, format: 'mp3' };
    return {
      available: (['original', 'high', 'standard'] as const).filter((q) => qualities[q]),
      qualities,
    };
  }

  /** The stored object to stream for a quality; the original serves until renditions exist. */
  async audio(ownerId: string, versionId: string, quality: Quality): Promise<StoredAudio> {
    return pickAudio(await this.owned(ownerId, versionId), quality);
  }

  /** The original, named after its project: the project name, a dash, the first 8 characters of the version id, its extension. */
  async download(ownerId: string, versionId: string): Promise<StoredAudio & { fileName: string }> {
    const found = await this.repo.findWithProject(ownerId, versionId);
    if (!found) throw new NotFound('Version not found');
    return downloadOf(found.version, found.project.name);
  }

  /** Detailed min/max peaks for zooming (stored as an object by processing). */
  async peaksKey(ownerId: string, versionId: string): Promise<string> {
    const v = await this.owned(ownerId, versionId);
    const waveform = parseJson<WaveformInfo | null>(v.waveform, null);
    if (!waveform) throw new NotFound('The waveform is not ready yet');
    return waveform.peaksKey;
  }

  private async owned(ownerId: string, versionId: string): Promise<VersionsTable> {
    const v = await this.repo.find(ownerId, versionId);
    if (!v) throw new NotFound('Version not found');
    return v;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
