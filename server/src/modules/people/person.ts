/**
 * How a person is named, written once. A name is made from what the account holds: the profile's
 * display name, the account's name (better-auth's `name`: a provider's full name, or blank or the
 * address itself for an email-and-password sign-up) and the account's address.
 */
export interface PersonNameParts {
  /** The profile's display name. */
  display_name?: string | null | undefined;
  /** The account's name (`users.name`). */
  user_name?: string | null | undefined;
  /** The account's address (`users.email`); only members ever see a part of it. */
  email?: string | null | undefined;
}

/** Who a person is when nothing names them (a blank account, or one that is gone). */
export const UNKNOWN_PERSON = 'Unknown User';

/** Something that reads as an email address, anywhere in the text. */
const ADDRESS = /[^\s@]+@[^\s@]+/;

/**
 * The name a person chose: their display name, else their account name unless it is blank or
 * an address. This is all a link listener (or anyone outside the team) is ever shown.
 */
export function listenerName(person: PersonNameParts): string | null {
  const display = person.display_name?.trim();
  if (display && !ADDRESS.test(display)) return display;
  const account = person.user_name?.trim();
  if (account && !ADDRESS.test(account)) return account;
  return null;
}

/**
 * A person as the team sees them (members of a project, a repository or a collection): the
 * name they chose, else the part of their address before the @.
 */
export function memberName(person: PersonNameParts): string | null {
  const chosen = listenerName(person);
  if (chosen) return chosen;
  const address =
    person.email?.trim() || addressIn(person.display_name) || addressIn(person.user_name);
  return address ? localPart(address) : null;
}

/** The part of an address before its @ (blank when there is none). */
function localPart(address: string): string | null {
  const at = address.indexOf('@');
  const local = (at >= 0 ? address.slice(0, at) : address).trim();
  return local || null;
}

function addressIn(text: string | null | undefined): string | null {
  return text ? (ADDRESS.exec(text)?.[0] ?? null) : null;
}
