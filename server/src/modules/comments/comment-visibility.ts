import type { CommentsTable } from '../../db/schema';

export type ThreadComment = Pick<
  CommentsTable,
  'id' | 'parent_id' | 'link_id' | 'team_only' | 'collection_link_id' | 'through_collection_link'
>;

/**
 * The ids of the comments a link shows. A comment is hidden when it or any comment above it is
 * team-only, or was made through a collection link other than this link (`own`). Unless
 * `everyone` (a version link's 'Listeners see each other's comments'), it shows only when it or a
 * comment above it was made through this link.
 */
export function visibleThroughLink(
  comments: readonly ThreadComment[],
  link: { own: (comment: ThreadComment) => boolean; everyone: boolean },
): Set<string> {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const visible = new Set<string>();
  for (const comment of comments) {
    let hidden = false;
    let throughThisLink = false;
    const seen = new Set<string>();
    // Walk up the thread (parents always exist: deleting one deletes its replies).
    for (
      let c: ThreadComment | undefined = comment;
      c && !seen.has(c.id);
      c = c.parent_id ? byId.get(c.parent_id) : undefined
    ) {
      seen.add(c.id);
      const own = link.own(c);
      if (c.team_only === 1 || (c.through_collection_link === 1 && !own)) hidden = true;
      if (own) throughThisLink = true;
    }
    if (!hidden && (link.everyone || throughThisLink)) visible.add(comment.id);
  }
  return visible;
}
