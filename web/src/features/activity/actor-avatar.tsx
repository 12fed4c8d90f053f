import type { ActivityItem } from '@takes/contract';
import { UserAvatar } from '../auth/user-avatar';

/** The actor's picture or initials (a visitor through a link has a name only). Decorative. */
export function ActorAvatar({
  actor,
  className = 'size-8 text-xs',
}: {
  actor: ActivityItem['actor'];
  className?: string;
}) {
  return (
    <UserAvatar
      className={className}
      user={{ email: '', name: actor.name, display_name: actor.name, avatar_url: actor.avatar_url }}
    />
  );
}
