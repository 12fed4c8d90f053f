import { randomUUID } from 'node:crypto';
import {
  UPLOAD_LINK_DEFAULT_DAYS,
  UPLOAD_LINK_MAX_DAYS,
  UPLOAD_LINK_MESSAGES,
  createRepoUploadLinkBodySchema,
  createUploadLinkBodySchema,
  REPO_MESSAGES,
  type CreateRepoUploadLinkBody,
  type CreateUploadLinkBody,
  type UploadLink,
  type UploadLinksResponse,
} from '@takes/contract';
import type { Clock } from '../../clock';
import { Invalid, NotFound } from '../../errors';
import type { AccessPolicy } from '../access';
import { newShareHash, type LinkPasswords } from '../sharing';
import { placeColumns, placeOf, requireAt, type GuestPlace } from './guest-place';
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
  /** A repository's branch by name (the repos module's). */
  repoBranch: (repoId: string, name: string) => Promise<{ id: string } | undefined>;
}

/**
 * The team's side of upload links: made for a project's branch by whoever may upload to the
 * project, or for a repository's branch by whoever may publish to it (Editor and up either way;
 * a Viewer or Commenter gets 403, anyone else 404); listed and revoked by the same people.
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
    return this.insert(userId, { kind: 'project', projectId, branchId: body.branch_id }, body);
  }

  async createForRepo(
    userId: string,
    repoId: string,
    input: CreateRepoUploadLinkBody,
  ): Promise<UploadLink> {
    const body = createRepoUploadLinkBodySchema.parse(input);
    await this.deps.access.repository(userId, repoId, 'publish');
    const branch = await this.deps.repoBranch(repoId, body.branch);
    if (!branch) throw new NotFound(REPO_MESSAGES.branchNotFound);
    return this.insert(userId, { kind: 'repo', repoId, branchId: branch.id }, body);
  }

  private async insert(
    userId: string,
    place: GuestPlace,
    body: Omit<ReturnType<typeof createUploadLinkBodySchema.parse>, 'branch_id'>,
  ): Promise<UploadLink> {
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
      ...placeColumns(place),
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

  async listForRepo(userId: string, repoId: string): Promise<UploadLinksResponse> {
    await this.deps.access.repository(userId, repoId, 'publish');
    const rows = await this.deps.repo.linksOfRepo(repoId);
    return { links: rows.map((row) => toUploadLink(row, this.deps.publicUrl)) };
  }

  /** Revoking twice is not an error; the page and any unfinished upload stop at once. */
  async revoke(userId: string, linkId: string): Promise<void> {
    const link = await this.deps.repo.linkById(linkId);
    if (!link) throw new NotFound(LINK_NOT_FOUND);
    await requireAt(this.deps.access, userId, placeOf(link), 'decide', LINK_NOT_FOUND);
    await this.deps.repo.revokeLink(linkId, this.deps.clock.now().toISOString());
  }
}
