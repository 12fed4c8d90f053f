import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server, type DataStore, type Upload } from '@tus/server';
import type { Kysely } from 'kysely';
import { GUEST_TUS_PATH, MAX_UPLOAD_BYTES, PROJECT_MESSAGES } from '@takes/contract';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import { Invalid, type AppError } from '../../errors';
import type { ScratchFile } from '../../storage/scratch-file';
import { countedStore } from './counted-store';
import { finishedUploadFile } from './finished-upload';
import { capRefusal, type HeldUploads, type OpenUploadCaps } from './open-upload-caps';
import type { ResumableUploadsRepo } from './resumable-uploads.repo';
import { RESUMABLE_UPLOAD_TTL_MS } from './resumable-uploads.service';
import { refusal, refusalOf } from './tus-refusal';
import { MAX_UPLOAD_FIELD } from './upload-fields';

/** Who sends a guest upload request: no account, their address and cookies (a link's unlock). */
export interface GuestCaller {
  ip: string;
  cookies: string | undefined;
}

/**
 * What an upload link decides about the uploads that come through it (the guest-uploads
 * module's GuestIntake, handed in by createServices so this module does not import it).
 */
export interface GuestUploadGate {
  /** The link a key opens for this caller, counted against the hourly limits: its id. */
  admit(key: string, ip: string, cookies: string | undefined, size: number): Promise<string>;
  /** Under the link's lock: why one more file of `size` does not fit the link. */
  refusal(
    linkId: string,
    held: HeldUploads,
    size: number,
    trx: Kysely<Database>,
  ): Promise<AppError | undefined>;
  /** Every later request of an upload: the link still opens for this caller. */
  stillOpen(linkId: string, cookies: string | undefined): Promise<void>;
  /** The whole file is in: taken in for the link. */
  receive(
    linkId: string,
    guest: { name: string; email: string | null },
    fileName: string,
    file: ScratchFile,
  ): Promise<unknown>;
  /** The guest's name and address from the upload's metadata, checked. */
  guestOf(metadata: Record<string, string | null> | undefined): {
    name: string;
    email: string | null;
  };
}

const NOT_FOUND = 'Upload not found';
const GONE = 'This upload has expired. Please start it again.';
const OWNER_PREFIX = 'upload-link:';

/**
 * Resumable uploads from guests through an upload link: the tus protocol of `/api/uploads`
 * (the same store, byte counting, caps and expiry; rows of kind 'guest' whose owner is the link,
 * so the link's unfinished uploads are counted and created under one lock), at
 * `/api/guest-uploads` without an account. The POST names the link's key in its metadata
 * (`upload_link`) with the guest's name and address; every later request of the upload needs
 * its unguessable id and a link that still opens for the caller. The last PATCH hands the file
 * to the link's intake; a refused file leaves nothing.
 */
export class GuestResumableUploads {
  readonly server: Server;
  private readonly context = new AsyncLocalStorage<GuestCaller>();

  constructor(
    private readonly deps: {
      repo: ResumableUploadsRepo;
      store: DataStore;
      gate: GuestUploadGate;
      clock: Clock;
      tmpDir: string;
      caps: OpenUploadCaps;
      /** 500 MB unless a test asks for less. */
      maxBytes?: number | undefined;
    },
  ) {
    this.server = new Server({
      path: GUEST_TUS_PATH,
      datastore: countedStore(deps.store, deps.repo, () => this.now()),
      relativeLocation: true,
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

  private get caller(): GuestCaller {
    const context = this.context.getStore();
    if (!context) throw refusal(401, 'Unauthorized');
    return context;
  }

  async handle(caller: GuestCaller, req: IncomingMessage, res: ServerResponse): Promise<void> {
    await this.context.run(caller, () => this.server.handle(req, res));
  }

  private linkOf(userId: string): string | undefined {
    return userId.startsWith(OWNER_PREFIX) ? userId.slice(OWNER_PREFIX.length) : undefined;
  }

  private async authorise(method: string, id: string): Promise<void> {
    if (method === 'POST') return;
    const row = await this.deps.repo.byId(id);
    const linkId = row?.kind === 'guest' ? this.linkOf(row.user_id) : undefined;
    if (!row || !linkId || row.state !== 'receiving') throw refusal(404, NOT_FOUND);
    if (Date.parse(row.created_at) + RESUMABLE_UPLOAD_TTL_MS <= this.deps.clock.now().getTime())
      throw refusal(410, GONE);
    try {
      await this.deps.gate.stillOpen(linkId, this.caller.cookies);
    } catch (error) {
      throw refusalOf(error) ?? error;
    }
  }

  private async create(upload: Upload): Promise<void> {
    const { ip, cookies } = this.caller;
    try {
      if (upload.size === undefined) throw new Invalid('Upload-Length is required');
      if (upload.size === 0) throw new Invalid(PROJECT_MESSAGES.fileRequired);
      const metadata = upload.metadata ?? {};
      for (const value of Object.values(metadata))
        if (value !== null && (value.length > MAX_UPLOAD_FIELD || value.includes('\u0000')))
          throw new Invalid('Upload metadata is not valid');
      const key = metadata.upload_link;
      if (!key) throw new Invalid('Upload metadata must name the upload link (upload_link)');
      if (!metadata.filename?.trim())
        throw new Invalid('Upload metadata must name the file (filename)');
      this.deps.gate.guestOf(metadata);
      const size = upload.size;
      const linkId = await this.deps.gate.admit(key, ip, cookies, size);
      const refused = await this.deps.repo.insertUnlessRefused(
        {
          id: upload.id,
          user_id: `${OWNER_PREFIX}${linkId}`,
          kind: 'guest',
          size,
          created_at: this.now(),
        },
        this.openSince(),
        async (held, trx) =>
          capRefusal(held, size, this.deps.caps) ??
          (await this.deps.gate.refusal(linkId, held, size, trx)),
      );
      if (refused) throw refused;
    } catch (error) {
      throw refusalOf(error) ?? error;
    }
  }

  private async finish(upload: Upload): Promise<unknown> {
    let scratch: ScratchFile | undefined;
    let copied = false;
    try {
      const row = await this.deps.repo.byId(upload.id);
      const linkId = row ? this.linkOf(row.user_id) : undefined;
      if (!linkId) throw new Invalid(NOT_FOUND);
      const guest = this.deps.gate.guestOf(upload.metadata);
      ({ file: scratch, copied } = await finishedUploadFile(this.deps.store, upload.id, {
        tmpDir: this.deps.tmpDir,
        maxBytes: this.maxBytes,
      }));
      const result = await this.deps.gate.receive(
        linkId,
        guest,
        upload.metadata?.filename ?? '',
        scratch,
      );
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

  private openSince(): string {
    return new Date(this.deps.clock.now().getTime() - RESUMABLE_UPLOAD_TTL_MS).toISOString();
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
