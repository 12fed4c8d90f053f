import type { RecentBounce } from '@takes/contract';

export interface RecentGroup {
  key: string;
  /** Newest first; the first is the one the card shows until another is chosen. */
  items: RecentBounce[];
}

/** Repository bounces group by repository plus title; legacy versions by project. */
export function recentGroupKey(item: RecentBounce): string {
  if (item.kind === 'version') return `project:${item.project_id ?? item.id}`;
  return `repo:${item.repo_id ?? ''}:${item.title}`;
}

/** Groups the recent feed, newest group first and newest item first within each group. */
export function groupRecent(items: readonly RecentBounce[]): RecentGroup[] {
  const sorted = [...items].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  const groups = new Map<string, RecentBounce[]>();
  for (const item of sorted) {
    const key = recentGroupKey(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups].map(([key, groupItems]) => ({ key, items: groupItems }));
}
