import {
  accessRequestLine,
  REVIEW_STATUS_LABELS,
  ROLE_LABELS,
  type ActivityItem,
  type ActivityKind,
  type ReviewStatus,
  type Role,
} from '@takes/contract';
import { avatarUrl } from '../profiles';
import { memberName, UNKNOWN_PERSON } from '../people';
import { parseActivityData, type StoredActivityData } from './activity-data';
import type { ActivityRow } from './activity.repo';

/**
 * The one presenter of an activity line: the 'Activity' panels and the notifications (the bell
 * and the emails) show each event in these words, so the two never disagree.
 */

/** "1:23" (and "1:02:03" past an hour), as the player shows a time. */
export function formatSeconds(total: number): string {
  const s = Math.max(0, Math.floor(total));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = String(s % 60).padStart(2, '0');
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`
    : `${minutes}:${seconds}`;
}

function reviewLabel(status: string | undefined): string {
  return status && status in REVIEW_STATUS_LABELS
    ? REVIEW_STATUS_LABELS[status as ReviewStatus]
    : 'reviewed';
}

function roleLabel(role: string | undefined): string {
  return role && role in ROLE_LABELS ? ROLE_LABELS[role as Role] : (role ?? 'a member');
}

/**
 * The actor's name: a person as the team sees them now (the person presenter), else the name
 * stored then (the account may be gone); a visitor's given name.
 */
function actorName(row: ActivityRow): string {
  if (row.actor_id)
    return (
      memberName({
        display_name: row.display_name,
        user_name: row.user_name,
        email: row.user_email,
      }) ??
      (row.actor_name?.trim() || UNKNOWN_PERSON)
    );
  return row.actor_name?.trim() || 'Anonymous';
}

/**
 * What the person reading a line may see: the address an invitation went to is shown only to
 * whoever may manage the members (the member list hides pending invitations from the others).
 */
export interface ActivityReader {
  seesInvitedAddresses: boolean;
}

/** "Ana invited lee@label.example as Editor", or "Ana invited someone as Editor" to the others. */
export function invitedSummary(
  actor: string,
  invitation: { email?: unknown; role?: unknown },
  showAddress: boolean,
): string {
  const address =
    showAddress && typeof invitation.email === 'string' && invitation.email.trim()
      ? invitation.email.trim()
      : 'someone';
  const role = typeof invitation.role === 'string' ? invitation.role : undefined;
  return `${actor} invited ${address} as ${roleLabel(role)}`;
}

/** The readable line, e.g. "Maya commented at 1:23 on Version 4". */
export function summarize(
  kind: ActivityKind,
  actor: string,
  d: StoredActivityData,
  reader: ActivityReader,
): string {
  const version = d.version_number !== undefined ? `Version ${d.version_number}` : 'a version';
  const at =
    typeof d.timestamp === 'number'
      ? typeof d.end_timestamp === 'number'
        ? ` at ${formatSeconds(d.timestamp)}–${formatSeconds(d.end_timestamp)}`
        : ` at ${formatSeconds(d.timestamp)}`
      : '';
  const link = d.link_name ? `the share link '${d.link_name}'` : 'a share link';
  switch (kind) {
    case 'version.uploaded':
      return `${actor} uploaded ${version}${d.branch_name ? ` to ${d.branch_name}` : ''}`;
    case 'version.processed':
      return `${version}${d.branch_name ? ` on ${d.branch_name}` : ''} finished processing`;
    case 'version.failed':
      return `Processing failed for ${version}${d.branch_name ? ` on ${d.branch_name}` : ''}`;
    case 'version.deleted':
      return `${actor} deleted ${version}${d.branch_name ? ` from ${d.branch_name}` : ''}`;
    case 'version.review_changed':
      return `${actor} marked ${version} as ${reviewLabel(d.status)}${d.blind_test ? ` from the blind test '${d.blind_test}'` : ''}`;
    case 'comment.posted':
      return `${actor} commented${at} on ${version}`;
    case 'comment.replied':
      return `${actor} replied${at} on ${version}`;
    case 'comment.resolved':
      return `${actor} resolved a comment${at} on ${version}`;
    case 'comment.reopened':
      return `${actor} reopened a comment${at} on ${version}`;
    case 'comment.deleted':
      return `${actor} deleted a comment${at} on ${version}`;
    case 'link.created':
      return `${actor} created ${link}`;
    case 'link.revoked':
      return `${actor} revoked ${link}`;
    case 'link.first_played':
      return `${actor} played ${link} for the first time`;
    case 'collection_link.first_played':
      return `${actor} played the collection '${d.collection_name ?? ''}' for the first time`;
    case 'branch.created':
      return `${actor} created the branch ${d.branch_name ?? ''}`.trimEnd();
    case 'branch.renamed':
      return `${actor} renamed the branch ${d.old_name ?? ''} to ${d.new_name ?? d.branch_name ?? ''}`;
    case 'branch.deleted':
      return `${actor} deleted the branch ${d.branch_name ?? ''}`.trimEnd();
    case 'branch.default_set':
      return `${actor} made ${d.branch_name ?? 'a branch'} the default branch`;
    case 'project.renamed':
      return `${actor} renamed the project to ${d.new_name ?? d.project_name ?? ''}`.trimEnd();
    case 'project.made_public':
      return `${actor} made the project public`;
    case 'project.made_private':
      return `${actor} made the project private`;
    case 'member.invited':
      return invitedSummary(actor, d, reader.seesInvitedAddresses);
    case 'member.joined':
      return `${actor} joined as ${roleLabel(d.role)}${d.invite_link_name ? ` through the invite link '${d.invite_link_name}'` : ''}`;
    case 'member.access_requested':
      return accessRequestLine(actor, d.project_name ?? 'the project');
    case 'member.left':
      return `${actor} left`;
    case 'member.removed':
      return `${actor} removed ${d.member_name ?? 'a member'}`;
    case 'member.role_changed':
      return `${actor} changed ${d.member_name ?? 'a member'}'s role to ${roleLabel(d.role)}`;
    case 'repo.committed':
      return d.message ? `${actor} committed '${d.message}'` : `${actor} made a commit`;
    case 'bounce.published':
      return `${actor} published the bounce ${d.bounce_name ? `'${d.bounce_name}'` : ''}`.trimEnd();
    case 'version.listened':
      return `${actor} listened to ${version}${d.branch_name ? ` on ${d.branch_name}` : ''} on a device${d.device_name ? ` ('${d.device_name}')` : ''}`;
    case 'bounce.listened':
      return `${actor} listened to the bounce ${d.bounce_name ? `'${d.bounce_name}' ` : ''}on a device${d.device_name ? ` ('${d.device_name}')` : ''}`;
    case 'guest_file.received':
      return `${actor} sent ${d.file_name ? `'${d.file_name}'` : 'a file'} via the upload link '${d.link_name ?? ''}'${d.branch_name ? ` for ${d.branch_name}` : ''}`;
  }
}

/** Where it happened in the app, or null when the place is not known. */
export function hrefOf(row: ActivityRow, d: StoredActivityData): string | null {
  // A collection link's first play is its owner's news: it opens the collection.
  if (row.kind === 'collection_link.first_played')
    return d.collection_id ? `/collections/${d.collection_id}` : null;
  // An access request opens the project's Members dialog, where the owner decides.
  if (row.kind === 'member.access_requested' && row.project_id)
    return `/projects/${row.project_id}?members=requests`;
  // A guest's file waits on its branch of the project page ('Sent by guests').
  if (row.kind === 'guest_file.received' && row.project_id)
    return `/projects/${row.project_id}${d.branch_id ? `?branch=${d.branch_id}` : ''}`;
  if (row.project_id) {
    const project = `/projects/${row.project_id}`;
    if (d.branch_id && d.version_id && row.kind !== 'version.deleted') {
      const page = `${project}/branches/${d.branch_id}/versions/${d.version_id}`;
      return row.kind.startsWith('comment.') &&
        row.kind !== 'comment.deleted' &&
        typeof d.timestamp === 'number'
        ? `${page}?t=${Math.floor(d.timestamp)}`
        : page;
    }
    return project;
  }
  if (row.repo_id) {
    const repo = `/repositories/${row.repo_id}`;
    return d.sha ? `${repo}/commit/${d.sha}` : repo;
  }
  return null;
}

/** An activity row as the panels and the notifications show it, written for its reader. */
export function toActivityItem(row: ActivityRow, reader: ActivityReader): ActivityItem {
  const data = parseActivityData(row.data);
  const name = actorName(row);
  const kind = row.kind as ActivityKind;
  return {
    id: row.id,
    kind,
    actor: {
      user_id: row.actor_id,
      name,
      avatar_url:
        row.actor_id && row.avatar_key ? avatarUrl(row.actor_id, row.profile_updated_at) : null,
    },
    project_id: row.project_id,
    repo_id: row.repo_id,
    summary: summarize(kind, name, data, reader),
    href: hrefOf(row, data),
    created_at: row.created_at,
  };
}
