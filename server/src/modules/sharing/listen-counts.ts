import { createHash } from 'node:crypto';
import { addressNetwork } from '../../auth/address-network';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';

/**
 * Who a link's play or download is counted for: the signed-in person (on that address), or else
 * the address alone (an IPv6 address's /64, as the other per-address limits count it). A link's
 * unlock cookie is the same for everyone who unlocked it, so it tells no listener from another.
 */
export interface Listener {
  ip: string;
  userId: string | null;
}

/** What is counted: one event of one item (a version link's version) of one link. */
export interface CountedEvent {
  linkId: string;
  itemId: string;
  event: string;
}

/**
 * Whether this play or download is the first of its listener and address within the hour, and
 * so is counted (a link holder cannot inflate a link's counts by asking again). The window is a
 * row of the shared `rate_limits` table, taken atomically, so it holds across processes and for
 * requests sent at once; it names the listener by a hash only, and goes after the hour.
 */
export function countsThisHour(
  limiter: RateLimiter,
  { linkId, itemId, event }: CountedEvent,
  listener: Listener,
): Promise<boolean> {
  const who = createHash('sha256')
    .update(`${listener.userId ?? ''}@${addressNetwork(listener.ip)}`)
    .digest('base64url');
  return limiter.hit(AUTH_RATE_RULES.linkListenCount, `${linkId}:${itemId}:${event}:${who}`);
}
