import ipaddr from 'ipaddr.js';

/**
 * The network a client address counts as for per-address limits: an IPv6 address's /64 (what
 * one customer or one host usually gets, so rotating addresses within it is free), an IPv4
 * address itself (also when written IPv4-mapped, `::ffff:192.0.2.1`). Anything else is returned
 * unchanged. Parsing is ipaddr.js's (Fastify's proxy-addr reads addresses with it too).
 */
export function addressNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const network = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(':')}::/64`;
}
