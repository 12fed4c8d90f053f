import { z } from 'zod';

/**
 * The collaboration loop: activity (what happened), notifications (who hears of it) and their
 * preferences. Every kind of event is listed here once; the server records them, the web app
 * shows them.
 */
export const ACTIVITY_KINDS = [
  'version.uploaded',
  'version.processed',
  'version.failed',
  'version.deleted',
  'version.review_changed',
  'comment.posted',
  'comment.replied',
  'comment.resolved',
  'comment.reopened',
  'comment.deleted',
  'link.created',
  'link.revoked',
  'link.first_played',
  /** A collection link's first play: only the collection's owner hears of it (no project feed). */
  'collection_link.first_played',
  'branch.created',
  'branch.renamed',
  'branch.deleted',
  'branch.default_set',
  'project.renamed',
  'project.made_public',
  'project.made_private',
  'member.invited',
  'member.joined',
  'member.left',
  'member.removed',
  'member.role_changed',
  /** A share link's listener asked to join the project: only its owner hears of it. */
  'member.access_requested',
  'repo.committed',
  'bounce.published',
  /** A member played a version or a bounce in a player app (OpenSubsonic `scrobble`). */
  'version.listened',
  'bounce.listened',
  /** A guest sent a file through an 'Upload link': it waits for the team to add or decline it. */
  'guest_file.received',
] as const;
export const activityKindSchema = z.enum(ACTIVITY_KINDS);
export type ActivityKind = z.infer<typeof activityKindSchema>;

/** What a person can choose to hear about. */
export const NOTIFICATION_CATEGORIES = [
  'comments',
  'versions',
  'membership',
  'processing',
] as const;
export const notificationCategorySchema = z.enum(NOTIFICATION_CATEGORIES);
export type NotificationCategory = z.infer<typeof notificationCategorySchema>;

export const NOTIFICATION_CHANNELS = ['email_and_in_app', 'in_app', 'off'] as const;
export const notificationChannelSchema = z.enum(NOTIFICATION_CHANNELS);
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

/** The UI words of the preference choices. */
export const NOTIFICATION_CHANNEL_LABELS: Record<NotificationChannel, string> = {
  email_and_in_app: 'Email and in-app',
  in_app: 'In-app only',
  off: 'Off',
};

/** 'Email and in-app' for comments and replies, 'In-app only' for the rest. */
export const DEFAULT_NOTIFICATION_CHANNELS: Record<NotificationCategory, NotificationChannel> = {
  comments: 'email_and_in_app',
  versions: 'in_app',
  membership: 'in_app',
  processing: 'in_app',
};

export const activityItemSchema = z.object({
  id: z.string(),
  kind: activityKindSchema,
  /** Who did it: a member (id, name, avatar) or a visitor through a share link (name only). */
  actor: z.object({
    user_id: z.string().nullable(),
    name: z.string(),
    avatar_url: z.string().nullable(),
  }),
  project_id: z.string().nullable(),
  repo_id: z.string().nullable(),
  /** A readable line, e.g. "Maya commented at 1:23 on Version 4". */
  summary: z.string(),
  /** Where it happened in the app (a version page seeking to a comment's time: `?t=83`), or null. */
  href: z.string().nullable(),
  created_at: z.string(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const activityPageSchema = z.object({
  items: z.array(activityItemSchema),
  /** Pass as `cursor` for the next (older) page; null at the end. */
  next_cursor: z.string().nullable(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;

export const activityQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const notificationSchema = z.object({
  id: z.string(),
  category: notificationCategorySchema,
  read: z.boolean(),
  created_at: z.string(),
  activity: activityItemSchema,
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsPageSchema = z.object({
  items: z.array(notificationSchema),
  next_cursor: z.string().nullable(),
  unread_count: z.number().int(),
});
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

export const notificationsQuerySchema = activityQuerySchema.extend({
  /** 'true': unread ones only ('Unread' filter). */
  unread: z.enum(['true', 'false']).optional(),
});

export const markReadBodySchema = z.union([
  z.object({ ids: z.array(z.string().max(64)).min(1).max(200) }),
  z.object({ all: z.literal(true) }),
  /** Reading a target (a version page, a project page) marks its notifications read. */
  z.object({ href: z.string().max(500) }),
]);

export const notificationPreferencesSchema = z.object({
  comments: notificationChannelSchema,
  versions: notificationChannelSchema,
  membership: notificationChannelSchema,
  processing: notificationChannelSchema,
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const unsubscribeQuerySchema = z.object({ token: z.string().min(16).max(400) });
