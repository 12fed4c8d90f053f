import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import type { S3Store } from '@tus/s3-store';
import { Server, type DataStore, type Upload } from '@tus/server';
import { MAX_UPLOAD_BYTES, PROJECT_MESSAGES, type ErrorBody } from '@takes/contract';
import type { Clock } from '../../clock';
import { AppError, Invalid, NotFound, TooLarge } from '../../errors';
import { STATUS_OF } from '../../http/errors';
import { streamToScratch, SNIFF_BYTES, type ScratchFile } from '../../storage/scratch-file';
import type { AccessPolicy } from '../access';
import { uploadLimitFor } from '../demo/demo-policy';
import type { PublishService } from '../repos/publish.service';
import type { UploadService } from '../versions/upload.service';
import { capRefusal, type OpenUploadCaps } from './open-upload-caps';
import type { ResumableUploadsRepo } from './resumable-uploads.repo';

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

/** What @tus/server turns into a response (its status_code and body): our one error body, as JSON. */
class TusRefusal extends Error {
  readonly body: string;
  constructor(
    readonly status_code: number,
    message: string,
    details?: unknown,
  ) {
    super(message);
    this.body = JSON.stringify(
      (details === undefined
        ? { error: message }
        : { error: message, details }) satisfies ErrorBody,
    );
  }
}

function refusal(status: number, message: string, details?: unknown): TusRefusal {
  return new TusRefusal(status, message, details);
}

function refusalOf(error: unknown): TusRefusal | undefined {
  if (error instanceof AppError)
    return refusal(STATUS_OF[error.code], error.message, error.details);
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return refusal(status, (error as Error).message);
  return undefined;
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
      datastore: this.counted(deps.store),
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

  /**
   * The store as @tus/server uses it, with each write's kept bytes added to the upload's count
   * as the write ends, under the upload's lock: a PATCH that ended well, and one cut off by a
   * dropped connection (its bytes up to the break are kept; the store's offset says how many),
   * so a resumed upload shows on the server whether any byte was sent twice. A client's
   * termination (DELETE) removes the row with the bytes, and a create the store refused leaves
   * no row: either way the upload no longer counts against its owner's caps.
   */
  private counted(store: DataStore): DataStore {
    const count = async (id: string, start: number, end: number) => {
      if (end > start) await this.deps.repo.addReceived(id, end - start, this.now());
    };
    const write: DataStore['write'] = async (readable, id, offset) => {
      let end: number;
      try {
        end = await store.write(readable, id, offset);
      } catch (error) {
        const kept = await store.getUpload(id).then(
          (upload) => upload.offset,
          () => offset,
        );
        await count(id, offset, kept);
        throw error;
      }
      await count(id, offset, end);
      return end;
    };
    const create: DataStore['create'] = async (upload) => {
      try {
        return await store.create(upload);
      } catch (error) {
        await this.deps.repo.delete(upload.id);
        throw error;
      }
    };
    const remove: DataStore['remove'] = async (id) => {
      try {
        await store.remove(id);
      } catch (error) {
        // Bytes already gone (a sweep got there first): the row goes all the same.
        if ((error as { status_code?: number }).status_code !== 404) throw error;
      }
      await this.deps.repo.delete(id);
    };
    return new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'write') return write;
        if (property === 'create') return create;
        if (property === 'remove') return remove;
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function'
          ? (value as (...args: unknown[]) => unknown).bind(target)
          : value;
      },
    });
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
      const refused = await this.deps.repo.insertUnlessRefused(
        { id: upload.id, user_id: userId, kind: target.kind, size, created_at: this.now() },
        this.openSince(),
        (held) => capRefusal(held, size, this.deps.caps),
      );
      if (refused) throw refused;
    } catch (error) {
      throw refusalOf(error) ?? error;
    }
  }

  private async checkTarget(userId: string, target: Target): Promise<void> {
    if (target.kind === 'bounce') {
      await this.deps.access.repository(userId, target.repoId, 'publish');
      return;
    }
    const { fields } = target;
    if (!fields.projectId && !fields.branchId) return;
    if (!fields.projectId) throw new Invalid(PROJECT_MESSAGES.projectRequired);
    if (!fields.branchId) throw new Invalid(PROJECT_MESSAGES.branchRequired);
    if (!fields.commitMessage?.trim()) throw new Invalid(PROJECT_MESSAGES.messageRequired);
    const branch = await this.deps.access.branch(
      userId,
      fields.branchId,
      'upload',
      'Project or branch not found',
    );
    if (branch.projectId !== fields.projectId) throw new NotFound('Project or branch not found');
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
      ({ file: scratch, copied } = await this.scratchOf(upload));
      let result: unknown;
      if (target.kind === 'version') {
        result = await this.deps.uploads.createVersion(
          userId,
          { ...scratch, fileName: target.filename, uploaderId: userId },
          target.fields,
        );
      } else {
        const publish = this.deps.publish;
        const started = await publish.publish(userId, {
          repoId: target.repoId,
          branch: target.branch,
          filename: target.filename,
          contentType: target.contentType,
          commitSha: target.commitSha,
          size: scratch.size,
        });
        await publish.receive(
          started.uploadId,
          started.uploadToken,
          fs.createReadStream(scratch.path),
          scratch.size,
        );
        result = await publish.complete(userId, {
          repoId: target.repoId,
          branch: target.branch,
          title: target.title,
          filename: target.filename,
          size: scratch.size,
          uploadId: started.uploadId,
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
   * The finished upload as a scratch file (path, size, hash, first bytes): the file store's own
   * file where the bytes are on this disk, else a copy streamed from the bucket.
   */
  private async scratchOf(upload: Upload): Promise<{ file: ScratchFile; copied: boolean }> {
    const store = this.deps.store;
    if (store instanceof FileStore) {
      const file = path.join(store.directory, upload.id);
      return { file: await describeFile(file), copied: false };
    }
    const body = await (store as S3Store).read(upload.id);
    const file = await streamToScratch(body, {
      dir: this.deps.tmpDir,
      prefix: 'resumable',
      maxBytes: this.maxBytes,
    });
    return { file, copied: true };
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

type Target =
  | {
      kind: 'version';
      filename: string;
      fields: {
        projectId?: string | undefined;
        branchId?: string | undefined;
        commitMessage?: string | undefined;
        tags?: string | undefined;
        projectName?: string | undefined;
        projectDescription?: string | undefined;
        isPrivate?: string | undefined;
      };
    }
  | {
      kind: 'bounce';
      filename: string;
      repoId: string;
      branch: string;
      commitSha?: string | undefined;
      title?: string | undefined;
      contentType?: string | undefined;
    };

const MAX_FIELD = 64 * 1024;

/** What the client's Upload-Metadata asks for, checked: text without NUL, within bounds. */
function targetOf(metadata: Record<string, string | null> | undefined): Target {
  const text = (name: string): string | undefined => {
    const value = metadata?.[name];
    if (value === null || value === undefined) return undefined;
    if (value.length > MAX_FIELD || value.includes('\u0000'))
      throw new Invalid(`Upload metadata '${name}' is not valid`);
    return value;
  };
  const filename = text('filename')?.trim();
  if (!filename) throw new Invalid('Upload metadata must name the file (filename)');
  const kind = text('kind') ?? 'version';
  if (kind === 'bounce') {
    const repoId = text('repoId');
    const branch = text('branch')?.trim();
    if (!repoId) throw new Invalid('Upload metadata must name the repository (repoId)');
    if (!branch) throw new Invalid('Upload metadata must name the branch (branch)');
    return {
      kind,
      filename,
      repoId,
      branch,
      commitSha: text('commitSha'),
      title: text('title'),
      contentType: text('filetype'),
    };
  }
  if (kind !== 'version') throw new Invalid(`Unknown upload kind '${kind}'`);
  return {
    kind,
    filename,
    fields: {
      projectId: text('projectId'),
      branchId: text('branchId'),
      commitMessage: text('commitMessage'),
      tags: text('tags'),
      projectName: text('projectName'),
      projectDescription: text('projectDescription'),
      isPrivate: text('isPrivate'),
    },
  };
}

/** Size, SHA-256 and first bytes of a file already on disk, read once. */
async function describeFile(file: string): Promise<ScratchFile> {
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  let size = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
    if (head.length < SNIFF_BYTES)
      head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
  }
  return { path: file, size, sha256: hash.digest('hex'), head };
}
