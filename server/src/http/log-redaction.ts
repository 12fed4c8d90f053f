import type { FastifyRequest } from 'fastify';

/**
 * Request URLs as the request log may show them: without the secrets some URLs carry.
 *
 * - query parameters that hold credentials: `?token=` (magic links, bearer tokens for audio
 *   elements), `?code=`/`?state=` (OAuth and desktop sign-in returns), `?sig=` (signed storage
 *   URLs), and anything else named like a key, secret, password or signature;
 * - share-link keys in paths: `/share/<key>` (the page), `/api/links/hash/<key>/…` and
 *   `/api/collection-links/<key>/…` (their APIs), and `?link=<key>` (a link page's live events);
 *   invitation tokens in `/invite/<token>` and invite-link keys in `/join/<key>` (the pages;
 *   their APIs take the secret in the body).
 */
export const REDACTED = '[redacted]';

// `p`, `t` and `s`: a Subsonic player's password, token and salt (refused, but never logged).
const SECRET_PARAM =
  /token|code|key|sig|secret|password|passwd|state|hash|auth|credential|^link$|[?&]link=|^[pts]$|[?&][pts]=/i;
const SECRET_PATHS: RegExp[] = [
  /^(\/share\/)[^/?#]+/,
  /^(\/api\/links\/hash\/)[^/?#]+/,
  /^(\/api\/collection-links\/)[^/?#]+/,
  /^(\/invite\/)[^/?#]+/,
  /^(\/join\/)[^/?#]+/,
];

export function redactUrl(url: string): string {
  // Most URLs (every Range request of a player) hold nothing to hide: no secret-looking name
  // anywhere in them, no escape that could spell one once decoded ('+' only ever breaks a name),
  // and none of the secret paths. They are logged as they are, without splitting the query.
  if (!url.includes('%') && !SECRET_PARAM.test(url) && !SECRET_PATHS.some((p) => p.test(url)))
    return url;
  const queryAt = url.indexOf('?');
  let pathPart = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? undefined : url.slice(queryAt + 1);
  for (const pattern of SECRET_PATHS) pathPart = pathPart.replace(pattern, `$1${REDACTED}`);
  if (query === undefined) return pathPart;
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the raw name.
      }
      return SECRET_PARAM.test(name) && eq !== -1 ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${pathPart}?${redacted}`;
}

/** Fastify's own `req` serializer, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
