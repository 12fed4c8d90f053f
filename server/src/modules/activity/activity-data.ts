import type { ActivityKind, MemberRole, ReviewStatus, Role } from '@takes/contract';

/**
 * What each kind of event keeps in `data`: what its line needs later, as it was then (a version's
 * number, a branch's name, a member's name…). One type per kind, checked where an event is
 * written (`ActivityLog.record`) and read by the one presenter (`activity.presenter.ts`).
 */

/** The fields naming a version: its page link and "Version 4 on main". */
export interface VersionRef {
  version_id: string;
  version_number: number;
  branch_id: string;
  branch_name: string;
}

/** A comment's place on its version: a time, or a range, or none; and the comment it answers. */
interface CommentRef extends VersionRef {
  timestamp: number | null;
  end_timestamp: number | null;
  parent_id: string | null;
}

interface NewComment extends CommentRef {
  team_only: boolean;
}

interface LinkRef extends VersionRef {
  link_name: string;
}

/** Nothing beyond the kind, the actor and the place. */
type NoData = Record<string, never>;

export interface ActivityDataOf {
  'version.uploaded': VersionRef;
  'version.processed': VersionRef;
  'version.failed': VersionRef;
  'version.deleted': VersionRef;
  'version.review_changed': VersionRef & {
    status: ReviewStatus;
    previous_status: ReviewStatus | null;
    through_link: boolean;
    /** The blind test's name, when 'Mark the winner Approved' made the change. */
    blind_test?: string;
  };
  'comment.posted': NewComment;
  'comment.replied': NewComment;
  'comment.resolved': CommentRef;
  'comment.reopened': CommentRef;
  'comment.deleted': CommentRef;
  'link.created': LinkRef;
  'link.revoked': LinkRef;
  'link.first_played': LinkRef;
  'collection_link.first_played': {
    collection_id: string;
    collection_name: string;
    link_name: string;
    recipient_name: string | null;
    /** The collection's owner: the one person told of it. */
    owner_id: string;
  };
  'branch.created': { branch_id: string; branch_name: string };
  'branch.renamed': { branch_id: string; branch_name: string; old_name: string; new_name: string };
  'branch.deleted': { branch_name: string };
  'branch.default_set': { branch_id: string; branch_name: string };
  'project.renamed': { old_name: string; new_name: string; project_name: string };
  'project.made_public': NoData;
  'project.made_private': NoData;
  /** The address is shown only to whoever may manage the members. */
  'member.invited': { email: string; role: MemberRole };
  /** `invite_link_name`: the invite link they joined through, if any. */
  'member.joined': { role: MemberRole; invite_link_name?: string };
  'member.left': { role: Role };
  'member.removed': { member_name: string | null };
  'member.role_changed': {
    member_name: string | null;
    role: MemberRole;
    old_role: MemberRole | null;
  };
  /** The project's name then ('Maya asked to join Night Drive'); the owner alone is told. */
  'member.access_requested': { project_name: string };
  'repo.committed': { sha: string; message: string; branch_name: string };
  'bounce.published': { bounce_name: string; sha: string | null; branch_name: string };
  /** The player app's name, as its owner named it on Settings → Devices. */
  'version.listened': VersionRef & { device_name: string };
  'bounce.listened': { bounce_name: string; branch_name: string; device_name: string };
  /** The actor is the guest's given name; the file waits on `branch_id` (no version yet). */
  'guest_file.received': {
    branch_id: string;
    branch_name: string;
    link_name: string;
    file_name: string;
  };
}

/** The kinds about one version, whose data begins with the version's `VersionRef`. */
export type VersionKind = {
  [K in ActivityKind]: ActivityDataOf[K] extends VersionRef ? K : never;
}[ActivityKind];

/** Every field any kind writes, each optional: a stored row read back (older rows may lack some). */
export type StoredActivityData = Partial<
  UnionToIntersection<Exclude<ActivityDataOf[ActivityKind], NoData>>
>;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (
  x: infer I,
) => void
  ? I
  : never;

/** The data of a stored row (JSON), read defensively: anything unreadable is no data. */
export function parseActivityData(raw: string): StoredActivityData {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}
