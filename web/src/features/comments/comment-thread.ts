import type { Comment } from '@takes/contract';

export interface CommentNode {
  comment: Comment;
  replies: CommentNode[];
}

function byCreation(a: Comment, b: Comment): number {
  return a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
}

/**
 * Groups comments into threads, oldest first at every level. A reply whose parent is not in the
 * list (deleted, or filtered out as resolved) is shown at the top level rather than lost.
 */
export function buildThreads(comments: readonly Comment[]): CommentNode[] {
  const sorted = [...comments].sort(byCreation);
  const nodes = new Map<string, CommentNode>(
    sorted.map((comment) => [comment.id, { comment, replies: [] }]),
  );
  const roots: CommentNode[] = [];
  for (const comment of sorted) {
    const node = nodes.get(comment.id);
    if (!node) continue;
    const parent = comment.parent_id ? nodes.get(comment.parent_id) : undefined;
    if (parent && parent !== node) parent.replies.push(node);
    else roots.push(node);
  }
  return roots;
}
