import type { z } from 'zod';
import type { visitorCommentBodySchema } from '@takes/contract';
import type { VisitorCommentInput } from './comments.service';

type VisitorCommentBody = z.infer<typeof visitorCommentBodySchema>;

/**
 * A visitor's comment from its body (a version's or a collection's link): a signed-in
 * listener's account (their given name is ignored; the service keeps the account only if it may
 * comment on the project), anyone else under the name they gave.
 */
export function visitorCommentInput(
  body: VisitorCommentBody,
  user: { id: string } | null | undefined,
): VisitorCommentInput {
  return {
    userId: user?.id ?? null,
    visitorName: user ? null : (body.visitor_name ?? null),
    content: body.content,
    timestamp: body.timestamp,
    endTimestamp: body.end_timestamp,
    parentId: body.parent_id,
  };
}
