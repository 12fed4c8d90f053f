import { isIP } from 'node:net';
import { z } from 'zod';

export type TrustProxy = false | number | string[];

/**
 * Which proxies in front of the server may tell it the client's address (X-Forwarded-For):
 * `false` (none: the socket address is the client), a hop count (`1` = one balancer in front:
 * the right-most X-Forwarded-For entry is the client) or a comma-separated list of proxy
 * addresses/CIDRs (`10.0.0.0/8, 127.0.0.1`; also proxy-addr's `loopback`, `linklocal` and
 * `uniquelocal`). `true` is refused: it would take the left-most entry, which any client sets.
 */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
export const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): TrustProxy => {
    const lower = value.toLowerCase();
    if (['false', '0', 'no'].includes(lower)) return false;
    if (['true', 'yes'].includes(lower)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'no longer takes true (any client could choose its address with X-Forwarded-For): ' +
          'give the number of proxies in front of Takes (e.g. 1) or their addresses (e.g. 10.0.0.0/8)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 100) return hops;
    }
    const entries = value.split(',').map((entry) => entry.trim());
    const bad = entries.find((entry) => !isProxyAddress(entry));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must be false, a hop count (1, 2, …) or a comma-separated list of proxy addresses/CIDRs; "${bad}" is none of these`,
      });
      return z.NEVER;
    }
    return entries;
  });

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
