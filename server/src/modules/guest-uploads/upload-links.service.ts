import { randomUUID } from 'node:crypto';
import {
  UPLOAD_LINK_DEFAULT_DAYS,
  UPLOAD_LINK_MAX_DAYS,
  UPLOAD_LINK_MESSAGES,
  createUploadLinkBodySchema,
  type CreateUploadLinkBody,
  type UploadLink,
  type UploadLinksResponse,
} from '@takes/contract';
import type { Clock } from '../../clock';
import { Invalid, NotFound } from '../../errors';
import type { AccessPolicy } from '../access';
import { newShareHash, type LinkPasswords } from '../sharing';
import { toUploadLink } from './guest-uploads.presenter';
import type { GuestUploadsRepo } from './guest-uploads.repo';

const DAY = 24 * 60 * 60 * 1000;
const LINK_NOT_FOUND = 'Upload link not found';

export interface UploadLinksDeps {
  access: AccessPolicy;
  repo: GuestUploadsRepo;
  clock: Clock;
  passwords: LinkPasswords;
  /** The web app's address, for the links' URLs. */
  publicUrl: string;
}

/**
 * The team's side of upload links: made for a branch, listed and revoked by whoever may upload
 * to the project (Editor and up; a Viewer or Commenter gets 403, anyone else 404).
 */
export class UploadLinksService {
  constructor(private readonly deps: UploadLinksDeps) {}

  async create(
    userId: string,
    projectId: string,
    input: CreateUploadLinkBody,
  ): Promise<UploadLink> {
    const body = createUploadLinkBodySchema.parse(input);
    await this.deps.access.project(userId, projectId, 'upload');
    const branch = await this.deps.access.branch(userId, body.branch_id, 'upload');
    if (branch.projectId !== projectId) throw new NotFound('Branch not found');
    const now = this.deps.clock.now();
    const expiresAt = body.expires_at
      ? new Date(body.expires_at)
      : new Date(now.getTime() + UPLOAD_LINK_DEFAULT_DAYS * DAY);
    if (expiresAt.getTime() <= now.getTime()) throw new Invalid(UPLOAD_LINK_MESSAGES.expiryPast);
    if (expiresAt.getTime() > now.getTime() + UPLOAD_LINK_MAX_DAYS * DAY)
      throw new Invalid(UPLOAD_LINK_MESSAGES.expiryTooFar);
    const passwordHash = await this.deps.passwords.hash(body.password ?? null);
    const id = randomUUID();
    await this.deps.repo.insertLink({
      id,
      project_id: projectId,
      branch_id: body.branch_id,
      created_by: userId,
      key: newShareHash(),
      name: body.name,
      message: body.message?.trim() || null,
      password_hash: passwordHash,
      max_files: body.max_files,
      max_bytes: body.max_bytes,
      expires_at: expiresAt.toISOString(),
      revoked_at: null,
      created_at: now.toISOString(),
    });
    const row = await this.deps.repo.linkById(id);
    if (!row) throw new NotFound(LINK_NOT_FOUND);
    return toUploadLink(row, this.deps.publicUrl);
  }

  async list(userId: string, projectId: string): Promise<UploadLinksResponse> {
    await this.deps.access.project(userId, projectId, 'upload');
    const rows = await this.deps.repo.linksOfProject(projectId);
    return { links: rows.map((row) => toUploadLink(row, this.deps.publicUrl)) };
  }

  /** Revoking twice is not an error; the page and any unfinished upload stop at once. */
  async revoke(userId: string, linkId: string): Promise<void> {
    const link = await this.deps.repo.linkById(linkId);
    if (!link) throw new NotFound(LINK_NOT_FOUND);
    await this.deps.access.project(userId, link.project_id, 'upload', LINK_NOT_FOUND);
    await this.deps.repo.revokeLink(linkId, this.deps.clock.now().toISOString());
  }
}
