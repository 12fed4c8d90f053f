import type { SessionUser } from '@takes/contract';
import { initials } from './user-names';

interface UserAvatarProps {
  user: Pick<SessionUser, 'email' | 'name' | 'display_name' | 'avatar_url'>;
  /** Tailwind size and text classes, e.g. `size-8 text-xs`. */
  className?: string;
}

/** The profile picture, or the person's initials on a coloured disc. Decorative: name it nearby. */
export function UserAvatar({ user, className = 'size-8 text-xs' }: UserAvatarProps) {
  if (user.avatar_url) {
    return (
      <img src={user.avatar_url} alt="" className={`${className} rounded-full object-cover`} />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`${className} inline-flex items-center justify-center rounded-full bg-indigo-600 font-semibold text-white`}
    >
      {initials(user)}
    </span>
  );
}
