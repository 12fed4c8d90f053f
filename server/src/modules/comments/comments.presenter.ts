import type { Comment } from '@takes/contract';
import { listenerName, memberName, UNKNOWN_PERSON } from '../people';
import { avatarUrl } from '../profiles';
import type { CommentRow } from './comments.repo';

/**
 * Who reads the comment: the team (a member's name, else the part of their address before the
 * @) or a link listener (never any part of an address).
 */
export type CommentReader = 'team' | 'listener';

/**
 * A comment as its reader sees it. The author line: a member as the person presenter names them
 * for this reader, else 'Unknown User'; a visitor's given name, else 'Anonymous'.
 */
export function toComment(row: CommentRow, reader: CommentReader): Comment {
  const person = {
    display_name: row.display_name,
    user_name: row.user_name,
    email: row.user_email,
  };
  const author = row.user_id
    ? ((reader === 'team' ? memberName(person) : listenerName(person)) ?? UNKNOWN_PERSON)
    : row.visitor_name || 'Anonymous';
  return {
    id: row.id,
    version_id: row.version_id,
    user_id: row.user_id,
    visitor_name: row.visitor_name,
    author,
    avatar_url:
      row.user_id && row.avatar_key ? avatarUrl(row.user_id, row.profile_updated_at) : null,
    content: row.content,
    timestamp: row.timestamp_seconds,
    end_timestamp: row.end_timestamp_seconds,
    version_number: row.version_number,
    parent_id: row.parent_id,
    resolved: row.resolved_at !== null,
    created_at: row.created_at,
    team_only: row.team_only === 1,
  };
}
