import type { Comment } from '@takes/contract';
import { describe, expect, it } from 'vitest';
import { buildThreads } from './comment-thread';

function comment(id: string, createdAt: string, parentId: string | null = null): Comment {
  return {
    id,
    version_id: 'v1',
    user_id: null,
    visitor_name: 'Vera',
    author: 'Vera',
    avatar_url: null,
    content: id,
    timestamp: null,
    end_timestamp: null,
    version_number: 1,
    parent_id: parentId,
    resolved: false,
    created_at: createdAt,
    team_only: false,
  };
}

describe('buildThreads', () => {
  it('orders oldest first and nests replies under their parent', () => {
    const threads = buildThreads([
      comment('reply-2', '2026-01-01T00:00:04Z', 'first'),
      comment('second', '2026-01-01T00:00:02Z'),
      comment('first', '2026-01-01T00:00:01Z'),
      comment('reply-1', '2026-01-01T00:00:03Z', 'first'),
      comment('nested', '2026-01-01T00:00:05Z', 'reply-1'),
    ]);
    expect(threads.map((t) => t.comment.id)).toEqual(['first', 'second']);
    expect(threads[0]?.replies.map((r) => r.comment.id)).toEqual(['reply-1', 'reply-2']);
    expect(threads[0]?.replies[0]?.replies.map((r) => r.comment.id)).toEqual(['nested']);
  });

  it('keeps a reply whose parent is missing at the top level', () => {
    const threads = buildThreads([comment('orphan', '2026-01-01T00:00:01Z', 'gone')]);
    expect(threads.map((t) => t.comment.id)).toEqual(['orphan']);
  });
});
