// @ts-check
import { endpoints } from '@takes/contract/runtime';
import { CliError } from './errors.js';
import { resultOf, serverClient } from './http.js';

/** @import { Context } from './context.js' */

/**
 * What a person may paste to name a version: its id, its page's address
 * (`https://host/projects/<p>/branches/<b>/versions/<id>`) or a share link (`https://host/share/<hash>`).
 * @typedef {{ kind: 'version'; id: string; origin?: string | undefined }
 *   | { kind: 'share'; hash: string; origin: string }} VersionRef
 */

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const NOT_A_VERSION =
  "Give a version's id, its page's address (…/projects/…/versions/ID) or a share link (…/share/KEY).";

/**
 * @param {string} raw
 * @param {string} server the server a path (`/share/KEY`, as the API gives links) is on
 * @returns {VersionRef}
 */
export function parseVersionRef(raw, server) {
  const text = raw.trim();
  if (ID.test(text)) return { kind: 'version', id: text };
  let url;
  try {
    url = text.startsWith('/') && !text.startsWith('//') ? new URL(text, server) : new URL(text);
  } catch {
    throw new CliError(`Not a version: ${text}. ${NOT_A_VERSION}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new CliError(`Not a version link: ${text}. ${NOT_A_VERSION}`);
  const parts = url.pathname.split('/').filter(Boolean).map(decodePart);
  const share = parts.length === 2 && parts[0] === 'share' ? parts[1] : undefined;
  if (share && ID.test(share)) return { kind: 'share', hash: share, origin: url.origin };
  const at = parts.indexOf('versions');
  const id = parts[0] === 'projects' && at > 0 && at === parts.length - 2 ? parts[at + 1] : '';
  if (id && ID.test(id)) return { kind: 'version', id, origin: url.origin };
  throw new CliError(`Not a version link: ${text}. ${NOT_A_VERSION}`);
}

/** @param {string} part */
function decodePart(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * A version page's address must be on the server the person is signed in to (its id means
 * nothing elsewhere).
 * @param {Context} ctx
 * @param {string | undefined} origin
 */
export function checkOrigin(ctx, origin) {
  if (origin === undefined || origin === new URL(ctx.server).origin) return;
  throw new CliError(
    `That link is on ${origin}, not on ${ctx.server}. Run the command with --server ${origin}.`,
  );
}

/**
 * The id of the version a reference names, for signed-in calls: a share link is opened (on the
 * signed-in server) to find its version.
 * @param {Context} ctx
 * @param {VersionRef} ref
 */
export async function versionIdOf(ctx, ref) {
  checkOrigin(ctx, ref.origin);
  if (ref.kind === 'version') return ref.id;
  const client = serverClient(ctx.server);
  const endpoint = endpoints.sharing.openShareLink;
  const shared = await resultOf(
    await client.fetch(endpoint, { params: { hash: ref.hash } }),
    ctx.server,
    endpoint,
  );
  return shared.version.id;
}
