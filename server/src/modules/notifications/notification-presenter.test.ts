import { describe, expect, it } from 'vitest';
import type { ActivityTable } from '../../db/schema';
import { presentActivity } from './notification-presenter';

const invited = (data: Record<string, unknown>): ActivityTable => ({
  id: 'a1',
  project_id: 'p1',
  repo_id: null,
  actor_id: 'u1',
  actor_name: 'Ana',
  kind: 'member.invited',
  target_id: 'i1',
  data: JSON.stringify(data),
  created_at: '2026-11-23T19:40:00.000Z',
});

describe('a notification of an invitation', () => {
  // Its readers are never the inviter (the owner, who alone may read the address).
  it('names no address, only the role, as the feed does for members', () => {
    const item = presentActivity(
      invited({ email: 'secret-collab@label.example', role: 'editor' }),
      undefined,
    );
    expect(item.summary).toBe('Ana invited someone as Editor');
    expect(JSON.stringify(item)).not.toContain('secret-collab');
  });
});
