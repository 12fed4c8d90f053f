import type { InferResult, Kysely } from 'kysely';
import type { Notification, NotificationCategory } from '@takes/contract';
import type { Database, NotificationsTable } from '../../db/schema';
import {
  parseActivityData,
  toActivityItem,
  type ActivityReader,
  type ActivityRow,
} from '../activity';
import type { BatchItem } from './notification-email';

/**
 * A notification with its activity row, read in one query with what the one activity presenter
 * needs (the actor's names and avatar, joined once) and the place's name (for the email).
 */
export interface NotificationRow extends NotificationsTable {
  activity: ActivityRow;
  /** The project's or repository's name. */
  place_name: string | null;
}

/** Notifications joined to their activity row, its actor and its place. */
export function selectNotifications(db: Kysely<Database>) {
  return db
    .selectFrom('notifications')
    .innerJoin('activity', 'activity.id', 'notifications.activity_id')
    .leftJoin('users', 'users.id', 'activity.actor_id')
    .leftJoin('profiles', 'profiles.user_id', 'activity.actor_id')
    .leftJoin('projects', 'projects.id', 'activity.project_id')
    .leftJoin('repos', 'repos.id', 'activity.repo_id')
    .selectAll('notifications')
    .select([
      'activity.id as a_id',
      'activity.project_id as a_project_id',
      'activity.repo_id as a_repo_id',
      'activity.actor_id as a_actor_id',
      'activity.actor_name as a_actor_name',
      'activity.kind as a_kind',
      'activity.target_id as a_target_id',
      'activity.data as a_data',
      'activity.created_at as a_created_at',
      'profiles.display_name as a_display_name',
      'users.name as a_user_name',
      'users.email as a_user_email',
      'profiles.avatar_key as a_avatar_key',
      'profiles.updated_at as a_profile_updated_at',
      'projects.name as project_name',
      'repos.name as repo_name',
    ]);
}

type SelectedRow = InferResult<ReturnType<typeof selectNotifications>>[number];

export function toNotificationRow(r: SelectedRow): NotificationRow {
  return {
    id: r.id,
    user_id: r.user_id,
    activity_id: r.activity_id,
    category: r.category,
    email: Number(r.email),
    read_at: r.read_at,
    emailed_at: r.emailed_at,
    created_at: r.created_at,
    place_name: r.project_name ?? r.repo_name ?? null,
    activity: {
      id: r.a_id,
      project_id: r.a_project_id,
      repo_id: r.a_repo_id,
      actor_id: r.a_actor_id,
      actor_name: r.a_actor_name,
      kind: r.a_kind,
      target_id: r.a_target_id,
      data: r.a_data,
      created_at: r.a_created_at,
      display_name: r.a_display_name,
      user_name: r.a_user_name,
      user_email: r.a_user_email,
      avatar_key: r.a_avatar_key,
      profile_updated_at: r.a_profile_updated_at,
    },
  };
}

/**
 * Notifications are read by members who may not manage the members (the one who may is the one
 * who invited): a line never carries an invited address.
 */
const READER: ActivityReader = { seesInvitedAddresses: false };

/** A notification as the bell shows it: its activity in the Activity panel's words. */
export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    category: row.category as NotificationCategory,
    read: row.read_at !== null,
    created_at: row.created_at,
    activity: toActivityItem(row.activity, READER),
  };
}

/** A notification as an email lists it: its line, where it happened, the version it is about. */
export function toBatchItem(row: NotificationRow): BatchItem {
  const version = parseActivityData(row.activity.data).version_number;
  return {
    category: row.category as NotificationCategory,
    activity: toActivityItem(row.activity, READER),
    place: row.place_name,
    versionLabel: version !== undefined ? `Version ${version}` : null,
  };
}
