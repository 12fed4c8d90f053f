import {
  REVIEW_STATUS_LABELS,
  ROLE_LABELS,
  type ReviewStatus,
  type ActivityItem,
  type ActivityKind,
  type MemberRole,
} from '@takes/contract';
import type { ActivityTable } from '../../db/schema';
import { invitedSummary } from '../activity';
import { avatarUrl } from '../auth/auth.service';
import type { ActivityContext } from './notifications.repo';

/**
 * An activity row as a notification shows it: who, a readable line and where it happened. (The
 * activity module's own presenter was not on main when this was written; this one reads the
 * current names and places from the database and the row's `data` for what no longer exists.)
 */
export function presentActivity(
  row: ActivityTable,
  ctx: ActivityContext | undefined,
): ActivityItem {
  const data = parseData(row.data);
  const actorName =
    ctx?.actorName?.trim() || row.actor_name?.trim() || str(data.actorName) || 'Someone';
  return {
    id: row.id,
    kind: row.kind as ActivityKind,
    actor: {
      user_id: row.actor_id,
      name: actorName,
      avatar_url:
        row.actor_id && ctx?.actorAvatarKey
          ? avatarUrl(row.actor_id, ctx.actorProfileUpdatedAt)
          : null,
    },
    project_id: row.project_id,
    repo_id: row.repo_id,
    summary: summaryOf(row, ctx, actorName, data),
    href: hrefOf(row, ctx),
    created_at: row.created_at,
  };
}

/** 83 → "1:23"; 3723 → "1:02:03". */
export function formatTimestamp(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

function summaryOf(
  row: ActivityTable,
  ctx: ActivityContext | undefined,
  actor: string,
  data: Record<string, unknown>,
): string {
  const versionNumber = ctx?.version?.number ?? num(data.versionNumber);
  const version = versionNumber !== undefined ? `Version ${versionNumber}` : 'a version';
  const branch = ctx?.version?.branchName ?? str(data.branchName);
  const seconds = ctx?.comment?.timestampSeconds ?? num(data.timestampSeconds) ?? null;
  const at = seconds !== null && seconds !== undefined ? ` at ${formatTimestamp(seconds)}` : '';
  const place = ctx?.projectName ?? ctx?.repoName ?? str(data.projectName) ?? str(data.repoName);
  const member = ctx?.memberName ?? str(data.memberName) ?? 'someone';
  const role = roleLabel(data.role);
  const linkName = ctx?.link?.name ?? str(data.linkName) ?? 'a link';
  switch (row.kind as ActivityKind) {
    case 'comment.posted':
      return `${actor} commented${at} on ${version}`;
    case 'comment.replied':
      return `${actor} replied${at} on ${version}`;
    case 'comment.resolved':
      return `${actor} resolved a comment on ${version}`;
    case 'comment.reopened':
      return `${actor} reopened a comment on ${version}`;
    case 'comment.deleted':
      return `${actor} deleted a comment on ${version}`;
    case 'version.uploaded':
      return `${actor} uploaded ${version}${branch ? ` to ${branch}` : ''}`;
    case 'version.processed':
      return `${version} is ready to play`;
    case 'version.failed':
      return `${version} could not be processed`;
    case 'version.deleted':
      return `${actor} deleted ${version}`;
    case 'version.review_changed': {
      const status = str(data.status);
      const label =
        status && status in REVIEW_STATUS_LABELS
          ? REVIEW_STATUS_LABELS[status as ReviewStatus]
          : 'reviewed';
      return `${actor} marked ${version} as ${label}`;
    }
    case 'link.created':
      return `${actor} created the link '${linkName}'`;
    case 'link.revoked':
      return `${actor} revoked the link '${linkName}'`;
    case 'link.first_played':
      return `Your link '${linkName}' was opened`;
    case 'collection_link.first_played':
      return `${actor} played the collection '${str(data.collection_name) ?? ''}' for the first time`;
    case 'branch.created':
      return `${actor} created the branch ${str(data.branchName) ?? ''}`.trimEnd();
    case 'branch.renamed':
      return `${actor} renamed a branch to ${str(data.name) ?? str(data.branchName) ?? ''}`.trimEnd();
    case 'branch.deleted':
      return `${actor} deleted the branch ${str(data.branchName) ?? ''}`.trimEnd();
    case 'branch.default_set':
      return `${actor} made ${str(data.branchName) ?? 'a branch'} the default branch`;
    case 'project.renamed':
      return `${actor} renamed the project to ${place ?? ''}`.trimEnd();
    case 'project.made_public':
      return `${actor} made the project public`;
    case 'project.made_private':
      return `${actor} made the project private`;
    case 'member.invited':
      // Never the address: only the owner may read it, and the owner is the one who invited.
      return invitedSummary(actor, data, false);
    case 'member.joined':
      return `${actor} joined${role ? ` as ${role}` : ''}`;
    case 'member.left':
      return `${actor} left${place ? ` ${place}` : ''}`;
    case 'member.removed':
      return `${actor} removed ${member}`;
    case 'member.role_changed':
      return `${actor} made ${member}${role ? ` ${article(role)} ${role}` : ' a member'}`;
    case 'repo.committed':
      return `${actor} committed${str(data.message) ? ` '${str(data.message)}'` : ''}${branch ? ` to ${branch}` : ''}`;
    case 'bounce.published':
      return `${actor} published ${str(data.title) ? `'${str(data.title)}'` : 'a bounce'}`;
    default:
      return `${actor}: ${row.kind}`;
  }
}

/** Where it happened in the app: a version page (seeking to a comment), a project, a repository. */
function hrefOf(row: ActivityTable, ctx: ActivityContext | undefined): string | null {
  if (row.kind === 'collection_link.first_played') {
    const collectionId = str(parseData(row.data).collection_id);
    return collectionId ? `/collections/${collectionId}` : null;
  }
  const v = ctx?.version;
  if (v) {
    const page = `/projects/${v.projectId}/branches/${v.branchId}/versions/${v.id}`;
    const seconds = ctx.comment?.timestampSeconds;
    return seconds !== null && seconds !== undefined ? `${page}?t=${Math.floor(seconds)}` : page;
  }
  if (row.repo_id) {
    if (ctx?.commitSha) return `/repositories/${row.repo_id}/commit/${ctx.commitSha}`;
    return `/repositories/${row.repo_id}`;
  }
  if (row.project_id) return `/projects/${row.project_id}`;
  return null;
}

/** A page's path, as notifications of it are matched: no query, no fragment, no trailing slash. */
export function pagePath(href: string): string {
  const path = href.replace(/^https?:\/\/[^/]+/, '').split(/[?#]/)[0] ?? '';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function parseData(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function roleLabel(value: unknown): string | undefined {
  return typeof value === 'string' && value in ROLE_LABELS
    ? ROLE_LABELS[value as MemberRole]
    : undefined;
}

function article(word: string): string {
  return /^[AEIOU]/i.test(word) ? 'an' : 'a';
}
