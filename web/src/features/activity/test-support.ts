import type { ActivityItem, Notification } from '@takes/contract';

/** Test-only builders for activity items and notifications as the API answers them. */

export function activityItem(overrides: Partial<ActivityItem> = {}): ActivityItem {
  return {
    id: 'a1',
    kind: 'comment.posted',
    actor: { user_id: 'u2', name: 'Maya', avatar_url: null },
    project_id: 'p1',
    repo_id: null,
    summary: 'Maya commented at 1:23 on Version 4',
    href: '/projects/p1/branches/b1/versions/v4?t=83',
    created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    ...overrides,
  };
}

export function notification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 'n1',
    category: 'comments',
    read: false,
    created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    activity: activityItem(),
    ...overrides,
  };
}
