import type { Member } from '@takes/contract';
import { secondaryButton } from '../../ui/button-styles';
import type { MembersTarget } from './members-api';

/** A line under the member list or the invite form, after a change succeeded or failed. */
export type Feedback = { tone: 'success' | 'error'; text: string } | null;

export type Noun = MembersTarget['kind'];

export const selectClass =
  'block rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 shadow-sm focus:outline-2 focus:-outline-offset-1 focus:outline-indigo-500 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900 dark:text-white';
export const smallButton = `${secondaryButton} px-2.5 py-1 text-xs`;
export const sectionHeading = 'text-sm font-semibold text-zinc-900 dark:text-white';

/** A member as the list names them: their display name, else their email. */
export function memberName(member: Member): string {
  return member.name?.trim() || member.email;
}
