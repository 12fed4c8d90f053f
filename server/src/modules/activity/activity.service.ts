import { may, type ActivityPage, type Role } from '@takes/contract';
import type { Clock } from '../../clock';
import { Invalid } from '../../errors';
import type { AccessPolicy } from '../access';
import { toActivityItem, type ActivityReader } from './activity.presenter';
import type { ActivityCursor, ActivityRepo } from './activity.repo';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The opaque 'Load more' cursor: the last row's time and id. */
export function encodeCursor(cursor: ActivityCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(raw: string | undefined): ActivityCursor | null {
  if (raw === undefined || raw === '') return null;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const createdAt = text.slice(0, bar);
  const id = text.slice(bar + 1);
  const time = bar > 0 && id ? cursorTime(createdAt) : null;
  if (!time) throw new Invalid('Invalid cursor');
  return { createdAt: time, id };
}

/**
 * A cursor's time as an ISO timestamp both databases read, or null. Date.parse accepts far more
 * than PostgreSQL does (a year of -977, say): only years 1 to 9999 pass, written out again.
 */
export function cursorTime(text: string): string | null {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  const time = new Date(ms);
  const year = time.getUTCFullYear();
  return year >= 1 && year <= 9999 ? time.toISOString() : null;
}

/**
 * Reading the activity of a project or repository (any member), and counting it. Each line is
 * written for the caller's role: an invitation's address only for whoever may manage members.
 */
export class ActivityService {
  constructor(private readonly deps: { access: AccessPolicy; repo: ActivityRepo; clock: Clock }) {}

  async projectActivity(
    userId: string,
    projectId: string,
    query: { cursor?: string; limit: number },
  ): Promise<ActivityPage> {
    const { role } = await this.deps.access.project(userId, projectId, 'view');
    return this.page({ projectId }, query, readerOf(role));
  }

  async repoActivity(
    userId: string,
    repoId: string,
    query: { cursor?: string; limit: number },
  ): Promise<ActivityPage> {
    const { role } = await this.deps.access.repository(userId, repoId, 'view');
    return this.page({ repoId }, query, readerOf(role));
  }

  /** Events in the last 30 days on the projects and repositories the person can see. */
  lastMonthCount(userId: string): Promise<number> {
    const since = new Date(this.deps.clock.now().getTime() - 30 * DAY_MS).toISOString();
    return this.deps.repo.countVisibleSince(userId, since);
  }

  private async page(
    place: { projectId: string } | { repoId: string },
    query: { cursor?: string; limit: number },
    reader: ActivityReader,
  ): Promise<ActivityPage> {
    const rows = await this.deps.repo.list(place, decodeCursor(query.cursor), query.limit + 1);
    const more = rows.length > query.limit;
    const items = rows.slice(0, query.limit);
    const last = items[items.length - 1];
    return {
      items: items.map((row) => toActivityItem(row, reader)),
      next_cursor: more && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
    };
  }
}

/** What a member of this role may read in the feed. */
function readerOf(role: Role): ActivityReader {
  return { seesInvitedAddresses: may(role, 'manageMembers') };
}
