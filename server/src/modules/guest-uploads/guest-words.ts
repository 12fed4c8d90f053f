import { guestIdentitySchema, GUEST_NAME_MAX } from '@takes/contract';
import { Invalid } from '../../errors';

/** Characters that could break a line, a header or a path: control and format characters. */
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * A guest's name as it is kept and shown: one line, no control characters, at most 80
 * characters (the team sees it in 'Sent by {name} via {link}' and in emails through mailText).
 */
export function cleanGuestName(raw: string): string {
  return raw.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim().slice(0, GUEST_NAME_MAX);
}

/**
 * A sent file's name as it is kept: its last path part only, one line without control
 * characters, at most 200 characters. It never names anything on disk or in the store (the
 * original is stored under its hash) and is never sent in a header.
 */
export function cleanFileName(raw: string): string {
  const base = raw.replace(UNSAFE, ' ').split(/[\\/]/).pop() ?? '';
  const name = base.replace(/\s+/g, ' ').trim().slice(0, 200);
  return name && name !== '.' && name !== '..' ? name : 'Untitled file';
}

/** The guest's name and address from the upload's metadata, checked (400 with the reason). */
export function guestOf(metadata: Record<string, string | null> | undefined): {
  name: string;
  email: string | null;
} {
  const parsed = guestIdentitySchema.safeParse({
    guest_name: cleanGuestName(metadata?.guest_name ?? ''),
    guest_email: (metadata?.guest_email ?? '').trim(),
  });
  if (!parsed.success)
    throw new Invalid(parsed.error.issues[0]?.message ?? 'Please enter your name');
  return { name: parsed.data.guest_name, email: parsed.data.guest_email || null };
}
