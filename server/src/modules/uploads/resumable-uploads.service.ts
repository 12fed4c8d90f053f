import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server, type DataStore, type Upload } from '@tus/server';
import { MAX_UPLOAD_BYTES, PROJECT_MESSAGES } from '@takes/contract';
import type { Clock } from '../../clock';
import { Invalid, TooLarge } from '../../errors';
import type { ScratchFile } from '../../storage/scratch-file';
import type { AccessPolicy } from '../access';
import { uploadLimitFor } from '../demo/demo-policy';
import type { StorageQuotas } from '../quotas';
import type { PublishService } from '../repos';
import type { UploadService } from '../versions';
import { countedStore } from './counted-store';
import { finishedUploadFile } from './finished-upload';
import { capRefusal, type OpenUploadCaps } from './open-upload-caps';
import type { ResumableUploadsRepo } from './resumable-uploads.repo';
import { refusal, refusalOf } from './tus-refusal';
import { checkUploadTarget } from './upload-fields';
import { targetOf, type UploadMetadataTarget } from './upload-metadata';

/** Where the tus endpoint answers (uploads are `${TUS_PATH}/<id>`). */
export const TUS_PATH = '/api/uploads';

/** An upload not finished within a day is abandoned: the expiry job removes it. */
export const RESUMABLE_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

const NOT_FOUND = 'Upload not found';
const GONE = 'This upload has expired. Please start it again.';

/** The caller of the tus request being handled (hooks get a web Request without our user). */
interface RequestContext {
  userId: string;
}

export interface ResumableUploadsDeps {
  access: AccessPolicy;
  /** Read by the demo's upload limits (demo-policy takes the database itself). */
  db: Parameters<typeof uploadLimitFor>[0];
  repo: ResumableUploadsRepo;
  store: DataStore;
  uploads: UploadService;
  publish: PublishService;
  clock: Clock;
  tmpDir: string;
  /** 500 MB (MAX_UPLOAD_BYTES) unless a test asks for less. */
  maxBytes?: number | undefined;
  /** What one person's unfinished uploads may hold at once (RESUMABLE_UPLOADS_MAX_OPEN, _BYTES). */
  caps: OpenUploadCaps;
  /** Holds the declared length against the owner's storage quota while the upload is open. */
  quotas: StorageQuotas;
}

/**
 * Resumable uploads with the tus protocol (@tus/server): a client creates an upload with its
 * length and metadata (what it becomes: a version of a branch, a new track, or a bounce on a
 * commit), sends the bytes in as many PATCH requests as its connection allows, and on the last
 * one the file goes through the same intake as a multipart upload (sniffed, probed, stored under
 * its hash, the version or bounce created and queued). A refused file leaves nothing behind.
 */
export class ResumableUploads {
  readonly server: Server;
  private readonly context = new AsyncLocalStorage<RequestContext>();

  constructor(private readonly deps: ResumableUploadsDeps) {
    this.server = new Server({
      path: TUS_PATH,
      datastore: countedStore(deps.store, deps.repo, () => this.now()),
      relativeLocation: true,
      // The limit checked at create (Upload-Length) and, for each PATCH, while the bytes arrive.
      maxSize: () => this.maxBytes,
      namingFunction: () => randomBytes(16).toString('hex'),
      onIncomingRequest: (req, id) => this.authorise(req.method, id),
      onUploadCreate: async (_req, upload) => {
        await this.create(upload);
        return {};
      },
      onUploadFinish: async (_req, upload) => {
        const result = await this.finish(upload);
        return {
          status_code: 200,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify(result),
        };
      },
    });
  }

  private get maxBytes(): number {
    return this.deps.maxBytes ?? MAX_UPLOAD_BYTES;
  }

  private get caller(): RequestContext {
    const context = this.context.getStore();
    if (!context) throw refusal(401, 'Unauthorized');
    return context;
  }

  /** Handles one tus request for a signed-in user. */
  async handle(userId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    await this.context.run({ userId }, () => this.server.handle(req, res));
  }

  /** Every request but create names an upload: only its own creator may touch it. */
  private async authorise(method: string, id: string): Promise<void> {
    const { userId } = this.caller;
    if (method === 'POST') return;
    const row = await this.deps.repo.byId(id);
    if (!row || row.user_id !== userId || row.state !== 'receiving') throw refusal(404, NOT_FOUND);
    if (Date.parse(row.created_at) + RESUMABLE_UPLOAD_TTL_MS <= this.deps.clock.now().getTime())
      throw refusal(410, GONE);
  }

  /**
   * Create: the length is known and within the caller's limit, the metadata names a place the
   * caller may upload to, and the caller's unfinished uploads leave room for one more of this
   * length (counted and inserted atomically, before the store makes anything).
   */
  private async create(upload: Upload): Promise<void> {
    const { userId } = this.caller;
    try {
      if (upload.size === undefined) throw new Invalid('Upload-Length is required');
      const limit = await uploadLimitFor(this.deps.db, userId, this.maxBytes, {
        needsQuota: true,
      });
      if (upload.size > limit.maxBytes) throw new TooLarge(limit.tooLarge);
      if (upload.size === 0) throw new Invalid(PROJECT_MESSAGES.fileRequired);
      const target = targetOf(upload.metadata);
      await this.checkTarget(userId, target);
      const size = upload.size;
      // The owner's storage quota holds the declared length under the upload's id (the row's
      // removal, on any ending, releases it with the row).
      const holder = await this.holderOf(userId, target);
      await this.deps.quotas.reserve(holder, size, {
        id: upload.id,
        ttlMs: RESUMABLE_UPLOAD_TTL_MS,
        uploaderId: userId,
      });
      const refused = await this.deps.repo.insertUnlessRefused(
        { id: upload.id, user_id: userId, kind: target.kind, size, created_at: this.now() },
        this.openSince(),
        (held) => capRefusal(held, size, this.deps.caps),
      );
      if (refused) {
        await this.deps.quotas.release(upload.id);
        throw refused;
      }
    } catch (error) {
      throw refusalOf(error) ?? error;
    }
  }

  /** Whose storage the upload counts in: the project's or repository's owner's, or the caller's. */
  private async holderOf(userId: string, target: UploadMetadataTarget): Promise<string> {
    const owner =
      target.kind === 'bounce'
        ? await this.deps.quotas.repoOwner(target.repoId)
        : target.fields.project_id
          ? await this.deps.quotas.projectOwner(target.fields.project_id)
          : null;
    return owner ?? userId;
  }

  private async checkTarget(userId: string, target: UploadMetadataTarget): Promise<void> {
    if (target.kind === 'bounce')
      await this.deps.access.repository(userId, target.repoId, 'publish');
    else await checkUploadTarget(this.deps.access, userId, target.fields);
  }

  /**
   * The last byte is in: the file goes through the multipart route's intake (or the bounce
   * publish's), then the tus upload is removed either way: what it became is stored elsewhere,
   * and a refused file leaves nothing.
   */
  private async finish(upload: Upload): Promise<unknown> {
    const { userId } = this.caller;
    let scratch: ScratchFile | undefined;
    let copied = false;
    try {
      const target = targetOf(upload.metadata);
      ({ file: scratch, copied } = await finishedUploadFile(this.deps.store, upload.id, {
        tmpDir: this.deps.tmpDir,
        maxBytes: this.maxBytes,
      }));
      let result: unknown;
      if (target.kind === 'version') {
        result = await this.deps.uploads.createVersion(
          userId,
          { ...scratch, fileName: target.filename, uploaderId: userId, reservationId: upload.id },
          target.fields,
        );
      } else {
        const publish = this.deps.publish;
        // The publish holds the real size itself, for the repository's owner.
        await this.deps.quotas.release(upload.id);
        const started = await publish.publish(userId, {
          repo_id: target.repoId,
          branch: target.branch,
          filename: target.filename,
          content_type: target.contentType,
          commit_sha: target.commitSha,
          size: scratch.size,
        });
        await publish.receive(
          started.upload_id,
          started.upload_token,
          fs.createReadStream(scratch.path),
          scratch.size,
        );
        result = await publish.complete(userId, {
          repo_id: target.repoId,
          branch: target.branch,
          title: target.title,
          filename: target.filename,
          size: scratch.size,
          upload_id: started.upload_id,
        });
      }
      await this.deps.repo.markFinished(upload.id, this.now());
      return result;
    } catch (error) {
      await this.deps.repo.delete(upload.id);
      throw refusalOf(error) ?? error;
    } finally {
      if (copied && scratch) await fsp.rm(scratch.path, { force: true });
      await this.deps.store.remove(upload.id).catch(() => {});
    }
  }

  /**
   * The expiry job: removes uploads started more than 24 h ago (the bytes of unfinished ones,
   * and the rows of all). Safe to run in several processes at once. Returns how many went.
   */
  async expire(): Promise<number> {
    const cutoff = this.openSince();
    let removed = 0;
    for (;;) {
      const rows = await this.deps.repo.startedBefore(cutoff, 100);
      for (const row of rows) {
        if (row.state === 'receiving') await this.removeStored(row.id);
        await this.deps.repo.delete(row.id);
        removed++;
      }
      if (rows.length < 100) return removed;
    }
  }

  private async removeStored(id: string): Promise<void> {
    try {
      await this.deps.store.remove(id);
    } catch (error) {
      // Already gone (a finish that removed it, another process's sweep) is what we wanted.
      if ((error as { status_code?: number }).status_code !== 404) throw error;
    }
  }

  /** Uploads started at or before this instant have expired (refused, then swept). */
  private openSince(): string {
    return new Date(this.deps.clock.now().getTime() - RESUMABLE_UPLOAD_TTL_MS).toISOString();
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
