import { randomInt, randomUUID } from 'node:crypto';
import {
  LINK_PASSWORD_MESSAGES,
  SHARE_HASH_LENGTH,
  SHARE_MESSAGES,
  type ReviewState,
  type ShareLink,
} from '@takes/contract';
import type { Clock } from '../../clock';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { LinkPasswords } from './link-password';
import { countsThisHour, type Listener } from './listen-counts';
import type { LinksTable, ProjectRow, VersionsTable } from '../../db/schema';
import { Gone, NotFound, RateLimited } from '../../errors';
import { parseJson, pickAudio, type Quality, type Renditions, type StoredAudio } from '../audio';
import { toVersion } from '../versions';
import type { LinksRepo } from './links.repo';
import type { AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function newShareHash(): string {
  let hash = '';
  for (let i = 0; i < SHARE_HASH_LENGTH; i++) hash += ALPHABET[randomInt(ALPHABET.length)];
  return hash;
}

/** What a valid link opens: exactly one version, with its project. */
export interface OpenedLink {
  link: LinksTable;
  version: VersionsTable;
  project: ProjectRow;
}

/** What the link's audio route may stream now, or why it may not yet. */
export type LinkAudio = { ready: true; audio: StoredAudio } | { ready: false };

/** What sharing reads of versions, by id; the versions module's repo is one. */
export interface VersionLookup {
  findWithProject(
    versionId: string,
  ): Promise<{ version: VersionsTable; project: ProjectRow } | undefined>;
  findById(versionId: string): Promise<VersionsTable | undefined>;
}

/**
 * Private links to one version. A link reaches its own version and nothing else; unknown and
 * revoked links answer alike on every route (expired ones say so). Making, listing, changing and
 * revoking links needs 'share' (Editor) on the project. Comments live in modules/comments.
 */
export class SharingService {
  constructor(
    private readonly deps: {
      access: AccessPolicy;
      links: LinksRepo;
      versions: VersionLookup;
      clock: Clock;
      limiter: RateLimiter;
      activity: ActivityLog;
      passwords: LinkPasswords;
      /** Whether a key is a live collection link's: a miss here is then not a guess. */
      collectionKeys: { isLiveKey(hash: string): Promise<boolean> };
      /** A blind test's key is answered as one (its page is another). */
      blindKeys: { isLiveKey(hash: string): Promise<boolean> };
    },
  ) {}

  async createLink(
    userId: string,
    versionId: string,
    input: {
      name?: string | undefined;
      download_enabled: boolean;
      expires_at?: string | null | undefined;
      listeners_see_each_other?: boolean | undefined;
      allow_approval?: boolean | undefined;
      password?: string | undefined;
    },
  ): Promise<ShareLink> {
    await this.deps.access.version(userId, versionId, 'share', SHARE_MESSAGES.versionNotFound);
    const passwordHash = await this.deps.passwords.hash(input.password);
    const found = await this.deps.versions.findWithProject(versionId);
    if (!found) throw new NotFound(SHARE_MESSAGES.versionNotFound);
    const row: LinksTable = {
      id: randomUUID(),
      hash: newShareHash(),
      version_id: versionId,
      project_id: found.project.id,
      // Who made the link (an editor's link belongs to the project like the owner's).
      owner_id: userId,
      name: input.name || `${found.project.name} - Version ${found.version.version_number}`,
      download_enabled: input.download_enabled ? 1 : 0,
      expires_at: input.expires_at ? new Date(input.expires_at).toISOString() : null,
      revoked_at: null,
      created_at: this.now(),
      listeners_see_each_other: input.listeners_see_each_other === false ? 0 : 1,
      allow_approval: input.allow_approval === true ? 1 : 0,
      play_count: 0,
      last_played_at: null,
      password_hash: passwordHash,
    };
    await this.deps.links.transaction(async (trx) => {
      await this.deps.links.insert(row, trx);
      await this.deps.activity.recordForVersion(trx, versionId, {
        kind: 'link.created',
        actor: { userId },
        targetId: row.id,
        data: { link_name: row.name },
      });
    });
    return toLink(row);
  }

  /** An editor changes a live link's options; a revoked link, or one out of reach, is not found. */
  async updateLink(
    userId: string,
    linkId: string,
    input: {
      listeners_see_each_other?: boolean | undefined;
      allow_approval?: boolean | undefined;
      /** A new password, or null to remove it. */
      password?: string | null | undefined;
    },
  ): Promise<ShareLink> {
    await this.deps.access.link(userId, linkId, 'share', SHARE_MESSAGES.linkNotFound);
    const { password, ...options } = input;
    const updated = await this.deps.links.setOptions(linkId, {
      ...options,
      ...(password === undefined
        ? {}
        : { password_hash: await this.deps.passwords.hash(password) }),
    });
    if (!updated) throw new NotFound(SHARE_MESSAGES.linkNotFound);
    return toLink(await this.deps.links.findById(linkId));
  }

  /** A version's live links, whoever made them. */
  async listLinks(userId: string, versionId: string): Promise<ShareLink[]> {
    await this.deps.access.version(userId, versionId, 'share', SHARE_MESSAGES.versionNotFound);
    const rows = await this.deps.links.listLive(versionId);
    return rows.map(toLink);
  }

  async revokeLink(userId: string, linkId: string): Promise<void> {
    const { versionId } = await this.deps.access.link(
      userId,
      linkId,
      'share',
      SHARE_MESSAGES.linkNotFound,
    );
    await this.deps.links.transaction(async (trx) => {
      if (!(await this.deps.links.revoke(linkId, this.now(), trx)))
        throw new NotFound(SHARE_MESSAGES.linkNotFound);
      const link = await this.deps.links.findById(linkId, trx);
      await this.deps.activity.recordForVersion(trx, versionId, {
        kind: 'link.revoked',
        actor: { userId },
        targetId: linkId,
        data: { link_name: link.name },
      });
    });
  }

  /**
   * Counts a play when a visitor's stream request asks for the start of the file (no Range, or
   * one from byte 0), once per listener and address an hour (`listener` is asked only then): the
   * count and the time only, nothing about the visitor is kept. The first play of a link is
   * recorded as 'link.first_played', once.
   */
  async countPlay(
    link: LinksTable,
    range: string | undefined,
    listener: () => Promise<Listener>,
  ): Promise<void> {
    if (!isStartOfFile(range)) return;
    const counted = { linkId: link.id, itemId: link.version_id, event: 'play' };
    if (!(await countsThisHour(this.deps.limiter, counted, await listener()))) return;
    await this.deps.links.transaction(async (trx) => {
      const count = await this.deps.links.countPlay(link.id, this.now(), trx);
      if (count === 1)
        await this.deps.activity.recordForVersion(trx, link.version_id, {
          kind: 'link.first_played',
          actor: { visitorName: 'A listener' },
          targetId: link.id,
          data: { link_name: link.name },
        });
    });
  }

  /**
   * Opens a link for a visitor: 404 unknown or revoked (a collection link's key: 404 with
   * details { kind: 'collection' }, not counted as a miss), 410 expired, 429 after many misses,
   * and 401 'This link needs a password' (nothing else) while a protected link's unlock cookie is
   * missing or stale. `cookies` is the request's Cookie header.
   */
  async open(hash: string, ip: string, cookies: string | undefined): Promise<OpenedLink> {
    const opened = await this.find(hash, ip);
    this.deps.passwords.requireOpen(
      'version',
      opened.link,
      cookies,
      LINK_PASSWORD_MESSAGES.needsPassword,
    );
    return opened;
  }

  /** Checks a protected link's password and answers the unlock cookie to set. */
  async unlock(hash: string, ip: string, password: string): Promise<string> {
    const { link } = await this.find(hash, ip);
    return this.deps.passwords.unlock(
      'version',
      link,
      ip,
      password,
      LINK_PASSWORD_MESSAGES.wrongPassword,
    );
  }

  private async find(hash: string, ip: string): Promise<OpenedLink> {
    if (await this.deps.limiter.isLimited(AUTH_RATE_RULES.linkMissIp, ip)) {
      throw new RateLimited('Too many attempts. Please wait a moment and try again.');
    }
    const link = /^[A-Za-z0-9]+$/.test(hash) ? await this.deps.links.findByHash(hash) : undefined;
    if (!link || link.revoked_at) {
      if (!link && (await this.deps.collectionKeys.isLiveKey(hash)))
        throw new NotFound(SHARE_MESSAGES.linkNotFound, {
          code: 'link_is_collection',
          details: { kind: 'collection' },
        });
      if (!link && (await this.deps.blindKeys.isLiveKey(hash)))
        throw new NotFound(SHARE_MESSAGES.linkNotFound, {
          code: 'link_is_blind_test',
          details: { kind: 'blind_test' },
        });
      await this.deps.limiter.hit(AUTH_RATE_RULES.linkMissIp, ip);
      throw new NotFound(SHARE_MESSAGES.linkNotFound, { code: 'link_not_found' });
    }
    if (link.expires_at && link.expires_at <= this.now())
      throw new Gone(SHARE_MESSAGES.linkExpired, { code: 'link_expired' });
    const version = await this.deps.versions.findById(link.version_id);
    if (!version) throw new NotFound(SHARE_MESSAGES.versionNotFound, { code: 'link_not_found' });
    const project = await this.deps.links.findProject(link.project_id);
    if (!project) throw new NotFound(SHARE_MESSAGES.versionNotFound, { code: 'link_not_found' });
    return { link, version, project };
  }

  /** The audio a link may stream (see linkAudioOf). */
  linkAudio({ link, version }: Pick<OpenedLink, 'link' | 'version'>, quality: Quality): LinkAudio {
    return linkAudioOf(link, version, quality);
  }

  sharedPage(opened: OpenedLink, review: ReviewState) {
    const { link, version, project } = opened;
    const view = toVersion(version);
    return {
      link: {
        name: link.name,
        download_enabled: link.download_enabled === 1,
        expires_at: link.expires_at,
        allow_approval: link.allow_approval === 1,
      },
      project: { name: project.name },
      version: {
        id: version.id,
        version_number: version.version_number,
        message: version.message,
        created_at: version.created_at,
        status: version.status,
        audio_ready: this.audioReady(opened),
        waveform_data: view.waveform_data,
        qualities: linkQualities(link, version),
        review,
      },
    };
  }

  private audioReady(opened: Pick<OpenedLink, 'link' | 'version'>): boolean {
    try {
      return this.linkAudio(opened, 'standard').ready;
    } catch {
      return false;
    }
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/**
 * The audio a link may stream (version links and collection links alike). With download rights:
 * the quality asked for (the original until renditions exist; Lossless is the original's own
 * samples, so it needs them too). Without: an MP3 rendition only ('Listen in' High or Standard;
 * the standard one when Original or Lossless is asked), never the original in any format, so
 * until processing has made the standard rendition the link must wait.
 */
export function linkAudioOf(
  link: Pick<LinksTable, 'download_enabled'>,
  version: Parameters<typeof pickAudio>[0],
  quality: Quality,
): LinkAudio {
  if (link.download_enabled === 1) return { ready: true, audio: pickAudio(version, quality) };
  const renditions = parseJson<Renditions>(version.renditions, {});
  if (quality === 'high' && renditions.high)
    return { ready: true, audio: pickAudio(version, 'high') };
  if (renditions.standard) return { ready: true, audio: pickAudio(version, 'standard') };
  if (version.status === 'failed') throw new NotFound('This quality is not available');
  return { ready: false };
}

/**
 * 'Listen in' on a link: the renditions made so far, and with download rights Lossless (the
 * original's FLAC) where it exists, else Original.
 */
export function linkQualities(
  link: Pick<LinksTable, 'download_enabled'>,
  version: Pick<VersionsTable, 'renditions' | 'original_key'>,
): Quality[] {
  const renditions = parseJson<Renditions>(version.renditions, {});
  const qualities: Quality[] = [];
  if (renditions.standard) qualities.push('standard');
  if (renditions.high) qualities.push('high');
  if (link.download_enabled === 1 && version.original_key)
    qualities.push(renditions.lossless ? 'lossless' : 'original');
  return qualities;
}

/** No Range header, or a range that starts at the first byte ("bytes=0-", "bytes=0-1023"). */
export function isStartOfFile(range: string | undefined): boolean {
  if (range === undefined || range.trim() === '') return true;
  return /^\s*bytes\s*=\s*0+\s*-/i.test(range);
}

function toLink(row: LinksTable): ShareLink {
  return {
    id: row.id,
    hash: row.hash,
    url: `/share/${row.hash}`,
    name: row.name,
    version_id: row.version_id,
    project_id: row.project_id,
    download_enabled: row.download_enabled === 1,
    expires_at: row.expires_at,
    created_at: row.created_at,
    listeners_see_each_other: row.listeners_see_each_other === 1,
    allow_approval: row.allow_approval === 1,
    play_count: row.play_count,
    last_played_at: row.last_played_at,
    has_password: row.password_hash !== null,
  };
}
