import type { Generated, Insertable, Selectable } from 'kysely';
import type { ReviewStatus } from '@takes/contract';

/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC strings on both dialects
 * (text on SQLite, timestamptz on PostgreSQL, read back as ISO strings).
 */
export interface JobsTable {
  id: string;
  name: string;
  payload: string;
  state: JobState;
  attempts: Generated<number>;
  max_attempts: number;
  retry_delay_ms: number;
  run_at: string;
  lease_expires_at: string | null;
  lock_token: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export type JobState = 'queued' | 'active' | 'completed' | 'failed';

/** A process working the pg-boss queue, and its heartbeat (see jobs/pgboss.ts). */
export interface QueueWorkersTable {
  id: string;
  host: string;
  pid: number;
  started_at: string;
  heartbeat_at: string;
}

/** One run of a pg-boss job by a worker of queue_workers. */
export interface QueueWorkerJobsTable {
  job_id: string;
  job_name: string;
  worker_id: string;
  started_on: string;
}

/** Owned by better-auth (see auth/auth.ts); typed here for our own reads. */
export interface UsersTable {
  id: string;
  name: string;
  email: string;
  email_verified: number | boolean;
  image: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  token: string;
  user_id: string;
  expires_at: string;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
  updated_at: string;
}

export interface AccountsTable {
  id: string;
  account_id: string;
  provider_id: string;
  user_id: string;
  password: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProfilesTable {
  user_id: string;
  display_name: string | null;
  avatar_key: string | null;
  updated_at: string;
}

export interface MagicCodesTable {
  email: string;
  code_hash: string;
  link_token_hash: string;
  failed_attempts: Generated<number>;
  expires_at: string;
  sent_at: string;
}

export interface RateLimitsTable {
  key: string;
  window_start: string;
  count: number;
  /** When the window ends (null only for rows written by an older version). */
  expires_at: string | null;
}

export interface DesktopCodesTable {
  code_hash: string;
  user_id: string;
  expires_at: string;
}

export interface RefreshTokensTable {
  token_hash: string;
  family_id: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface AccessTokensTable {
  token_hash: string;
  family_id: string;
  user_id: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

/** One desktop or CLI sign-in: the family of its rotating tokens. */
export interface DesktopFamiliesTable {
  id: string;
  user_id: string;
  name: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** Wrong emailed codes per address per day, and the escalating lock-out they trip. */
export interface MagicCodeFailuresTable {
  email: string;
  failures: number;
  window_start: string;
  lockouts: Generated<number>;
  locked_until: string | null;
}

export interface ProjectsTable {
  id: string;
  owner_id: string;
  name: string;
  description: string | null;
  is_private: number;
  /** 1: a public project's page may be indexed by search engines (0: `noindex`). */
  listed: number;
  created_at: string;
  updated_at: string;
  /** How many branches the project has; kept by triggers on branches (migration 0024). */
  branch_count: Generated<number>;
}

export interface BranchesTable {
  id: string;
  project_id: string;
  name: string;
  is_default: number;
  created_at: string;
  updated_at: string;
  /** How many versions the branch has; kept by triggers on versions (migration 0024). */
  version_count: Generated<number>;
}

/** A project row as read, and as written (the count is the triggers'). */
export type ProjectRow = Selectable<ProjectsTable>;
export type NewProject = Insertable<ProjectsTable>;

/** A branch row as read, and as written (the count is the triggers'). */
export type Branch = Selectable<BranchesTable>;
export type NewBranch = Insertable<BranchesTable>;

export type VersionStatus = 'processing' | 'completed' | 'failed';

export interface VersionsTable {
  id: string;
  project_id: string;
  branch_id: string;
  version_number: number;
  message: string | null;
  /** JSON array of strings. */
  tags: string;
  original_key: string | null;
  original_name: string | null;
  original_size: number | null;
  original_format: string | null;
  status: VersionStatus;
  error: string | null;
  /** JSON: probe results. */
  metadata: string | null;
  /** JSON: { overview: number[], peaksKey, peaksPerSecond }. */
  waveform: string | null;
  /** JSON: { integratedLufs, loudnessRange, truePeakDbfs }. */
  loudness: string | null;
  /** JSON: { high?: { key, size }, standard?: { key, size } }. */
  renditions: string;
  /** 'in_review' (default) | 'changes_requested' | 'approved'; every change is in version_reviews. */
  review_status: ReviewStatus;
  /** A plain URL given to POST /versions/create (no stored original). */
  file_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface LinksTable {
  id: string;
  hash: string;
  version_id: string;
  project_id: string;
  owner_id: string;
  name: string;
  download_enabled: number;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  /** 1 (default): visitors see every visitor's comments; 0: only their own link's threads. */
  listeners_see_each_other: number;
  /** Plays by visitors (a stream request for the start of the file); nothing about them is kept. */
  play_count: number;
  last_played_at: string | null;
  /** 1: 'Allow approval', the link's listeners may set the version's review status. */
  allow_approval: number;
  /** A slow hash of the link's optional password (migration 0027); never shown. */
  password_hash: string | null;
}

/** One change of a version's review status: by a member, or by a visitor through a link. */
export interface VersionReviewsTable {
  id: string;
  version_id: string;
  status: ReviewStatus;
  user_id: string | null;
  visitor_name: string | null;
  link_id: string | null;
  /** Set when 'Mark the winner Approved' of a blind test made the change (migration 0035). */
  blind_test_id: string | null;
  created_at: string;
}

/** A blind test (migration 0035): 2–4 versions of a project heard by letter only. */
export interface BlindTestsTable {
  id: string;
  project_id: string;
  created_by: string | null;
  name: string;
  mode: 'preference' | 'abx' | 'both';
  trials: number | null;
  reveal_after_voting: number;
  status: 'preparing' | 'ready' | 'failed';
  error: string | null;
  duration: number | null;
  password_hash: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** One version of a blind test and its loudness-matched rendition (when made). */
export interface BlindTestOptionsTable {
  test_id: string;
  version_id: string;
  position: number;
  audio_key: string | null;
  size: number | null;
  gain_db: number | null;
}

export interface BlindTestLinksTable {
  id: string;
  test_id: string;
  hash: string;
  position: number;
  recipient_name: string | null;
  recipient_email: string | null;
  created_at: string;
}

/** A browser that opened a blind test's link: its cookie's hash and what it was dealt. */
export interface BlindListenersTable {
  id: string;
  test_id: string;
  link_id: string;
  token_hash: string;
  name: string | null;
  /** JSON: BlindAssignment. */
  assignment: string;
  created_at: string;
  last_activity_at: string;
}

export interface BlindVotesTable {
  listener_id: string;
  version_id: string;
  note: string | null;
  created_at: string;
  updated_at: string;
}

export interface BlindTrialsTable {
  listener_id: string;
  number: number;
  x_version_id: string;
  x_option_id: string;
  /** 1 right, 0 wrong, null until answered. */
  correct: number | null;
  created_at: string;
  answered_at: string | null;
}

/** A person's OpenSubsonic API key for one player app (migration 0036): only its hash is kept. */
export interface PlayerAppsTable {
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  latest_only: number;
  created_at: string;
  last_used_at: string | null;
  last_client: string | null;
  revoked_at: string | null;
}

/** An owner's invite link to a project (migration 0037): a role, uses and an expiry. */
export interface InviteLinksTable {
  id: string;
  project_id: string;
  link_key: string;
  creator_id: string | null;
  name: string;
  role: MemberRole;
  max_uses: number;
  uses: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** A share link's listener asking to join a project (migration 0037). */
export interface AccessRequestsTable {
  id: string;
  project_id: string;
  user_id: string;
  note: string | null;
  status: 'open' | 'granted' | 'declined';
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
  granted_role: MemberRole | null;
}

/** A play a player app reported (`scrobble`): of a version or of a bounce. */
export interface PlayerPlaysTable {
  id: string;
  user_id: string;
  player_app_id: string | null;
  project_id: string | null;
  version_id: string | null;
  repo_id: string | null;
  bounce_id: string | null;
  played_at: string;
}

/** How two versions line up in time (migration 0034): `segments` map `from` onto `to`. */
export interface VersionAlignmentsTable {
  from_version_id: string;
  to_version_id: string;
  status: 'pending' | 'ready' | 'failed';
  confidence: number | null;
  /** JSON: [{ from_start, from_end, to_start, to_end }], when ready. */
  segments: string | null;
  /** JSON: { threshold_db, regions } on the from version's timeline, when ready. */
  from_changes: string | null;
  /** The same on the to version's timeline. */
  to_changes: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface CommentsTable {
  id: string;
  version_id: string;
  user_id: string | null;
  visitor_name: string | null;
  link_id: string | null;
  parent_id: string | null;
  content: string;
  timestamp_seconds: number | null;
  /** The end of a range comment (after timestamp_seconds); null for a point or no time. */
  end_timestamp_seconds: number | null;
  resolved_at: string | null;
  created_at: string;
  /** 1: shown to the team only, never through a share link (replies inherit it). */
  team_only: number;
  /**
   * The collection link it was made through (migration 0032; null once that link is gone).
   * Optional when inserting, as the next one: most comments come through none.
   */
  collection_link_id?: string | null;
  /** 1: made through a collection link (kept when the link goes): no version link shows it. */
  through_collection_link?: number;
}

export interface ReposTable {
  id: string;
  owner_id: string;
  name: string;
  name_key: string;
  cover_key: string | null;
  cover_type: string | null;
  created_at: string;
  updated_at: string;
  /** Newest of: repository change, commit, patch, bounce. */
  activity_at: string;
}

export interface RepoBranchesTable {
  id: string;
  repo_id: string;
  name: string;
  is_default: number;
  head_sha: string | null;
  created_at: string;
  updated_at: string;
}

export interface RepoCommitsTable {
  id: string;
  repo_id: string;
  branch_id: string;
  sha: string;
  parent_sha: string | null;
  message: string | null;
  seq: number;
  created_at: string;
}

export interface RepoPatchesTable {
  id: string;
  repo_id: string;
  patch_hash: string;
  message: string | null;
  created_at: string;
}

/** Columns the audio pipeline reads and writes, shared by versions and bounces. */
export interface ProcessedAudioColumns {
  original_key: string | null;
  original_format: string | null;
  status: VersionStatus;
  error: string | null;
  metadata: string | null;
  waveform: string | null;
  loudness: string | null;
  renditions: string;
  updated_at: string;
}

export interface BouncesTable extends ProcessedAudioColumns {
  id: string;
  repo_id: string;
  branch_id: string;
  commit_id: string;
  title: string;
  filename: string;
  mime: string;
  original_key: string;
  original_size: number;
  original_format: string;
  created_at: string;
}

export type BounceUploadStatus = 'pending' | 'receiving' | 'uploaded' | 'completed';

export interface BounceUploadsTable {
  id: string;
  owner_id: string;
  repo_id: string;
  branch: string;
  filename: string;
  content_type: string | null;
  commit_sha: string | null;
  token_hash: string;
  status: BounceUploadStatus;
  object_key: string | null;
  size: number | null;
  sha256: string | null;
  format: string | null;
  /** JSON: ffprobe results taken while the file was received. */
  metadata: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface ContactMessagesTable {
  id: string;
  topic: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  role: string | null;
  company_name: string | null;
  artists_represented: string | null;
  user_id: string | null;
  created_at: string;
}

/** An upload in flight that is about to use a stored original (see stored-audio.ts). */
export interface OriginalRefsTable {
  id: string;
  original_key: string;
  created_at: string;
}

/** A key left behind by a deletion, waiting for the clean-up job. */
export interface StorageCleanupTable {
  id: string;
  batch_id: string;
  object_key: string;
  kind: 'object' | 'original';
  created_at: string;
}

/** A 'Try demo' account: deleted with its data at `expires_at`, with a small upload quota. */
export interface DemoAccountsTable {
  user_id: string;
  expires_at: string;
  uploads_used: Generated<number>;
  created_at: string;
}

/** A role below the owner's; the owner is the project's or repository's `owner_id`. */
export type MemberRole = 'editor' | 'commenter' | 'viewer';

export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
  role: MemberRole;
  created_at: string;
}

export interface RepoMembersTable {
  repo_id: string;
  user_id: string;
  role: MemberRole;
  created_at: string;
}

/** A member of a collection below its owner (migration 0030). */
export interface CollectionMembersTable {
  collection_id: string;
  user_id: string;
  role: MemberRole;
  created_at: string;
}

/** An emailed invitation into a project, a repository or a collection (exactly one is set). */
export interface InvitationsTable {
  id: string;
  project_id: string | null;
  repo_id: string | null;
  /** Migration 0030. */
  collection_id: string | null;
  /** Lower-cased. */
  email: string;
  role: MemberRole;
  /** SHA-256 of the token in the emailed link; the token itself is never stored. */
  token_hash: string;
  inviter_id: string | null;
  created_at: string;
  /** When the current token was emailed ('Resend' replaces the token and moves this). */
  sent_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
}

/** One meaningful event, written in the transaction of the change it describes. */
export interface ActivityTable {
  id: string;
  project_id: string | null;
  repo_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  kind: string;
  target_id: string | null;
  /** JSON object. */
  data: string;
  created_at: string;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  activity_id: string;
  category: string;
  /** 1: to be emailed. */
  email: number;
  read_at: string | null;
  emailed_at: string | null;
  created_at: string;
}

export interface NotificationPreferencesTable {
  user_id: string;
  category: string;
  channel: string;
}

export interface NotificationEmailsTable {
  id: string;
  user_id: string;
  sent_at: string | null;
  created_at: string;
}

export type DataExportState = 'queued' | 'running' | 'ready' | 'failed' | 'expired';

/** One 'Export my data' request: its zip (`object_key`) downloadable until `expires_at`. */
export interface DataExportsTable {
  id: string;
  user_id: string;
  state: DataExportState;
  /** 0..100, written as the job goes. */
  progress: number;
  size: number | null;
  object_key: string | null;
  /** What the person is told when it failed. */
  error: string | null;
  created_at: string;
  updated_at: string;
  ready_at: string | null;
  expires_at: string | null;
}

/** A resumable (tus) upload: its bytes are in the tus store, this row says whose it is. */
export interface ResumableUploadsTable {
  id: string;
  user_id: string;
  /** 'guest': sent through an upload link (user_id is then `upload-link:<link id>`). */
  kind: 'version' | 'bounce' | 'guest';
  size: number | string;
  state: 'receiving' | 'finished';
  received_bytes: Generated<number | string>;
  patches: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** SQLite only: each version's searchable words in a narrow row (see migration 0018). */
export interface SearchVersionsTable {
  id: Generated<number>;
  version_id: string;
  project_id: string;
  created_at: string;
  message: string | null;
  tags: string | null;
}

/** SQLite only (migration 0019): project and branch names for the FTS5 search index. */
export interface SearchNamesTable {
  id: Generated<number>;
  target_id: string;
  kind: 'project' | 'branch';
  project_id: string;
  name: string;
  description: string | null;
}

/** A processed version's list and feed waveforms (migration 0020; see modules/audio/previews). */
export interface VersionPreviewsTable {
  version_id: string;
  peaks: string;
  pairs: string;
  duration: number | null;
}

/** A person's own ordered list of takes (migration 0025). */
export interface CollectionsTable {
  id: string;
  owner_id: string;
  name: string;
  description: string | null;
  /** The cover image's storage key and sniffed type (migration 0028), or null. */
  cover_key: string | null;
  cover_type: string | null;
  created_at: string;
  updated_at: string;
}

/** One entry of a collection: a pinned version, the newest processed version of a branch, or a bounce. */
export interface CollectionItemsTable {
  id: string;
  collection_id: string;
  /** Order key within the collection; the API numbers items 0..n-1 in this order. */
  position: number;
  version_id: string | null;
  branch_id: string | null;
  /** A repository's bounce (migration 0031); exactly one of the three targets is set. */
  bounce_id: string | null;
  added_by: string;
  created_at: string;
}

/** A share link to a collection (migration 0026); `password_hash` is never shown. */
export interface CollectionLinksTable {
  id: string;
  collection_id: string;
  hash: string;
  name: string;
  recipient_name: string | null;
  recipient_email: string | null;
  expires_at: string | null;
  download_enabled: number;
  password_hash: string | null;
  revoked_at: string | null;
  created_at: string;
  /** When the link was emailed to its recipient (migration 0027); null: never. */
  emailed_at: string | null;
  /** When the link was first played (migration 0027): its owner is told once. */
  first_played_at: string | null;
}

/** Which collection link and item a comment came through (migration 0027). */
export interface CollectionLinkCommentsTable {
  comment_id: string;
  link_id: string;
  item_id: string | null;
}

/** Listen receipts of a collection link, per item (migration 0026): counts only. */
export interface CollectionLinkReceiptsTable {
  link_id: string;
  item_id: string;
  plays_started: number;
  plays_30s: number;
  plays_90: number;
  downloads: number;
  last_activity_at: string;
}

/** A 'Download all' zip of a collection link's items (migration 0029), kept for a day. */
export interface CollectionLinkZipsTable {
  id: string;
  link_id: string;
  status: 'pending' | 'building' | 'ready' | 'failed';
  /** Items copied into the zip so far, of `total`. */
  done: number;
  total: number;
  /** What it holds, in order: a JSON array of [item id, original key] pairs. */
  items: string;
  object_key: string | null;
  size: number | string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

/**
 * An 'Upload link' of a project's branch (`project_id`, `branch_id`, migration 0038) or of a
 * repository's branch (`repo_id`, `repo_branch_id`, migration 0039): exactly one pair is set.
 */
export interface UploadLinksTable {
  id: string;
  project_id: string | null;
  branch_id: string | null;
  repo_id: string | null;
  repo_branch_id: string | null;
  created_by: string;
  key: string;
  name: string;
  message: string | null;
  password_hash: string | null;
  max_files: number;
  max_bytes: number | string;
  files_received: Generated<number>;
  bytes_received: Generated<number | string>;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

/** A file a guest sent through an upload link, waiting to be accepted or declined (migration 0038). */
export interface GuestFilesTable extends ProcessedAudioColumns {
  id: string;
  link_id: string | null;
  link_name: string;
  /** The link's place (one pair set), copied when the file came. */
  project_id: string | null;
  branch_id: string | null;
  repo_id: string | null;
  repo_branch_id: string | null;
  guest_name: string;
  guest_email: string | null;
  original_key: string;
  original_name: string;
  original_size: number | string;
  original_format: string;
  created_at: string;
}

/** A setting an admin stored over the environment's (migration 0040); value is JSON. */
export interface InstanceSettingsTable {
  key: string;
  /** JSON text. */
  value: string;
  updated_by: string | null;
  updated_at: string;
}

/** Bytes an upload in flight holds against a person's storage quota (migration 0040). */
export interface StorageReservationsTable {
  id: string;
  user_id: string;
  bytes: number | string;
  expires_at: string;
  created_at: string;
}

/** What an admin set for one person (migration 0040). */
export interface UserControlsTable {
  user_id: string;
  /** null: USER_STORAGE_QUOTA applies. */
  storage_quota_bytes: number | string | null;
  disabled_at: string | null;
  /** While disabled, 1 when their share and collection links stop answering too. */
  links_disabled: Generated<number>;
  updated_at: string;
}

/** An admin's invitation to make an account, by lower-case email (migration 0040). */
export interface SignupInvitationsTable {
  email: string;
  invited_by: string | null;
  created_at: string;
  used_at: string | null;
}

/** One admin action, kept (migration 0040); detail is JSON. */
export interface AdminActionsTable {
  id: string;
  admin_id: string | null;
  admin_email: string;
  action: string;
  target_user_id: string | null;
  target_email: string | null;
  /** JSON text. */
  detail: string | null;
  created_at: string;
}

export interface Database {
  instance_settings: InstanceSettingsTable;
  user_controls: UserControlsTable;
  storage_reservations: StorageReservationsTable;
  admin_actions: AdminActionsTable;
  signup_invitations: SignupInvitationsTable;
  upload_links: UploadLinksTable;
  guest_files: GuestFilesTable;
  collections: CollectionsTable;
  collection_link_comments: CollectionLinkCommentsTable;
  collection_link_receipts: CollectionLinkReceiptsTable;
  collection_link_zips: CollectionLinkZipsTable;
  collection_links: CollectionLinksTable;
  collection_items: CollectionItemsTable;
  version_previews: VersionPreviewsTable;
  resumable_uploads: ResumableUploadsTable;
  search_versions: SearchVersionsTable;
  search_names: SearchNamesTable;
  data_exports: DataExportsTable;
  activity: ActivityTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  notification_emails: NotificationEmailsTable;
  project_members: ProjectMembersTable;
  repo_members: RepoMembersTable;
  collection_members: CollectionMembersTable;
  invitations: InvitationsTable;
  contact_messages: ContactMessagesTable;
  repos: ReposTable;
  repo_branches: RepoBranchesTable;
  repo_commits: RepoCommitsTable;
  repo_patches: RepoPatchesTable;
  bounces: BouncesTable;
  bounce_uploads: BounceUploadsTable;
  links: LinksTable;
  comments: CommentsTable;
  version_reviews: VersionReviewsTable;
  version_alignments: VersionAlignmentsTable;
  blind_tests: BlindTestsTable;
  blind_test_options: BlindTestOptionsTable;
  blind_test_links: BlindTestLinksTable;
  blind_listeners: BlindListenersTable;
  blind_votes: BlindVotesTable;
  blind_trials: BlindTrialsTable;
  player_apps: PlayerAppsTable;
  invite_links: InviteLinksTable;
  access_requests: AccessRequestsTable;
  player_plays: PlayerPlaysTable;
  projects: ProjectsTable;
  branches: BranchesTable;
  versions: VersionsTable;
  desktop_codes: DesktopCodesTable;
  refresh_tokens: RefreshTokensTable;
  access_tokens: AccessTokensTable;
  desktop_families: DesktopFamiliesTable;
  magic_code_failures: MagicCodeFailuresTable;
  jobs: JobsTable;
  queue_workers: QueueWorkersTable;
  queue_worker_jobs: QueueWorkerJobsTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  profiles: ProfilesTable;
  magic_codes: MagicCodesTable;
  rate_limits: RateLimitsTable;
  original_refs: OriginalRefsTable;
  storage_cleanup: StorageCleanupTable;
  demo_accounts: DemoAccountsTable;
}
