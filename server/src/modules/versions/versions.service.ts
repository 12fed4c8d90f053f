import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PROJECT_MESSAGES, type ProcessingResponse, type Version } from '@takes/contract';
import type { Clock } from '../../clock';
import type { Database, VersionsTable } from '../../db/schema';
import { HttpError, notFound } from '../../http/errors';
import { ProjectsRepo } from '../projects/projects.repo';
import type { ProjectsService } from '../projects/projects.service';
import { AUDIO_MIME, type AudioFormat } from '../../media/audio-type';
import { parseJson, toVersion, type Renditions, type WaveformInfo } from './version-view';
import { VersionsRepo } from './versions.repo';

export type Quality = 'original' | 'high' | 'standard';

export interface StoredAudio {
  key: string;
  contentType: string;
  format: string;
  size: number | null;
  /**
   * A strong ETag from the content's SHA-256 (an original's key is its hash; a rendition's is
   * recorded by processing). Undefined for a rendition processed before hashes were recorded:
   * the store's own validator is used then, if it has one.
   */
  etag: string | undefined;
}

const KNOWN_EXTENSIONS = new Set(['wav', 'mp3', 'aac', 'm4a', 'flac', 'ogg', 'aiff']);

export class VersionsService {
  private readonly repo: VersionsRepo;
  private readonly projectsRepo: ProjectsRepo;

  constructor(
    private readonly deps: { db: Kysely<Database>; clock: Clock; projects: ProjectsService },
  ) {
    this.repo = new VersionsRepo(deps.db);
    this.projectsRepo = new ProjectsRepo(deps.db);
  }

  async getWithProject(ownerId: string, versionId: string) {
    const found = await this.repo.findWithProject(ownerId, versionId);
    if (!found) throw notFound('Version not found');
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
      },
    };
  }

  async listForBranch(ownerId: string, projectId: string, branchId: string): Promise<Version[]> {
    const branch = await this.projectsRepo.findBranch(ownerId, branchId);
    if (!branch || branch.project_id !== projectId) throw notFound('Branch not found');
    return (await this.repo.listForBranches([branchId])).map(toVersion);
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
    await this.deps.db.transaction().execute(async (trx) => {
      const version = await this.repo.find(ownerId, versionId, trx);
      if (!version) throw notFound('Version not found');
      await this.repo.delete(versionId, trx);
      await this.projectsRepo.touchProject(version.project_id, this.now(), trx);
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
        await this.deps.db.transaction().execute(async (trx) => {
          const branch = await this.projectsRepo.findBranch(ownerId, input.branch_id, trx);
          if (!branch || branch.project_id !== input.project_id)
            throw notFound('Project or branch not found');
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
          await this.projectsRepo.touchProject(branch.project_id, now, trx);
        });
        break;
      } catch (error) {
        if (error instanceof HttpError) throw error;
        if (attempt >= 5) throw new HttpError(500, PROJECT_MESSAGES.createVersionFailed);
      }
    }
    const row = await this.repo.find(ownerId, id);
    if (!row) throw new HttpError(500, PROJECT_MESSAGES.createVersionFailed);
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

  /** Spec section 9: project name, a dash, the first 8 characters of the version id, its extension. */
  async download(ownerId: string, versionId: string): Promise<StoredAudio & { fileName: string }> {
    const found = await this.repo.findWithProject(ownerId, versionId);
    if (!found) throw notFound('Version not found');
    return downloadOf(found.version, found.project.name);
  }

  /** Detailed min/max peaks for zooming (stored as an object by processing). */
  async peaksKey(ownerId: string, versionId: string): Promise<string> {
    const v = await this.owned(ownerId, versionId);
    const waveform = parseJson<WaveformInfo | null>(v.waveform, null);
    if (!waveform) throw notFound('The waveform is not ready yet');
    return waveform.peaksKey;
  }

  private async owned(ownerId: string, versionId: string): Promise<VersionsTable> {
    const v = await this.repo.find(ownerId, versionId);
    if (!v) throw notFound('Version not found');
    return v;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** What to stream for a quality: its rendition, or the original until renditions exist. */
export function pickAudio(
  v: Pick<
    VersionsTable,
    'renditions' | 'original_key' | 'original_format' | 'original_size' | 'status'
  >,
  quality: Quality,
): StoredAudio {
  const renditions = parseJson<Renditions>(v.renditions, {});
  if (quality !== 'original' && renditions[quality]) {
    const r = renditions[quality];
    return {
      key: r.key,
      contentType: 'audio/mpeg',
      format: 'mp3',
      size: r.size,
      etag: r.sha256 ? `"${r.sha256}"` : undefined,
    };
  }
  if (!v.original_key) throw notFound('This version has no stored audio');
  if (quality !== 'original' && v.status === 'failed')
    throw notFound('This quality is not available');
  const format = (v.original_format ?? 'wav') as AudioFormat;
  return {
    key: v.original_key,
    contentType: AUDIO_MIME[format] ?? 'application/octet-stream',
    format,
    size: v.original_size,
    etag: originalEtag(v.original_key),
  };
}

/** Originals are stored under their SHA-256 (`originals/ab/abcd…`): that hash is their ETag. */
function originalEtag(key: string): string | undefined {
  const hash = key.split('/').pop() ?? '';
  return key.startsWith('originals/') && /^[0-9a-f]{64}$/.test(hash) ? `"${hash}"` : undefined;
}

/** The download's extension: its format's, or for AIFF the one its file had (.aif, .aiff, .aifc). */
function extensionOf(format: string, originalName: string | null): string {
  if (format === 'aiff') {
    const own = /\.(aif|aiff|aifc)$/i.exec(originalName ?? '')?.[1];
    return own ? own.toLowerCase() : 'aiff';
  }
  return KNOWN_EXTENSIONS.has(format) ? format : 'wav';
}

/** The original as a download named after its project. */
export function downloadOf(
  v: VersionsTable,
  projectName: string,
): StoredAudio & { fileName: string } {
  if (!v.original_key) throw notFound('Version not found');
  const audio = pickAudio(v, 'original');
  const ext = extensionOf(audio.format, v.original_name);
  // Characters file systems refuse, and control characters, become spaces.
  const safeName =
    [...projectName]
      .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? ' ' : c))
      .join('')
      .trim() || 'Takes';
  return { ...audio, fileName: `${safeName}-${v.id.slice(0, 8)}.${ext}` };
}
