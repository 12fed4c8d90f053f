import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  NOTIFICATION_CATEGORIES,
  type ActivityItem,
  type NotificationCategory,
} from '@takes/contract';
import type { MailMessage } from '../../mail/mailer';
import { mailText } from '../../mail/mail-text';

/** The path of the emailed unsubscribe link (GET: a page; POST: RFC 8058 one-click). */
export const UNSUBSCRIBE_PATH = '/api/notifications/unsubscribe';

/** The categories in people's words (the /settings choices). */
export const CATEGORY_WORDS: Record<NotificationCategory, string> = {
  comments: 'comments and replies',
  versions: 'new versions',
  membership: 'membership',
  processing: 'processing',
};

/**
 * The unsubscribe token: the recipient and the categories an email was about, signed with the
 * app's secret key (HMAC-SHA256), so following it needs no session and cannot be made for anyone
 * else or for another category.
 */
export class UnsubscribeTokens {
  constructor(private readonly secret: string) {}

  sign(userId: string, categories: NotificationCategory[]): string {
    const payload = Buffer.from(`${userId}|${[...new Set(categories)].sort().join(',')}`).toString(
      'base64url',
    );
    return `${payload}.${this.signature(payload)}`;
  }

  /** The recipient and categories of a genuine token; undefined for a forged or damaged one. */
  verify(token: string): { userId: string; categories: NotificationCategory[] } | undefined {
    const [payload, sig, extra] = token.split('.');
    if (!payload || !sig || extra !== undefined) return undefined;
    const expected = Buffer.from(this.signature(payload));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const [userId, list, more] = Buffer.from(payload, 'base64url').toString('utf8').split('|');
    if (!userId || !list || more !== undefined) return undefined;
    const categories = list.split(',');
    if (!categories.every((c) => (NOTIFICATION_CATEGORIES as readonly string[]).includes(c)))
      return undefined;
    return { userId, categories: categories as NotificationCategory[] };
  }

  private signature(payload: string): string {
    return createHmac('sha256', this.secret)
      .update(`notifications-unsubscribe\n${payload}`)
      .digest('base64url');
  }
}

/** One event of a batch: its line, where it happened and when. */
export interface BatchItem {
  category: NotificationCategory;
  activity: ActivityItem;
  /** The project's or repository's name. */
  place: string | null;
  /** "Version 2", for grouping comments on one version in the subject. */
  versionLabel: string | null;
}

/** "3 new comments on Client Mix – Version 2", or a general subject for a mixed batch. */
export function batchSubject(items: BatchItem[]): string {
  const n = items.length;
  const first = items[0];
  if (!first) return 'New activity on Takes';
  const allComments = items.every((i) => i.category === 'comments');
  const places = new Set(items.map((i) => i.place));
  const onePlace = places.size === 1 ? first.place : null;
  const versions = new Set(items.map((i) => i.versionLabel));
  if (allComments) {
    const noun = n === 1 ? 'new comment' : 'new comments';
    if (onePlace && versions.size === 1 && first.versionLabel)
      return `${n} ${noun} on ${onePlace} – ${first.versionLabel}`;
    return onePlace ? `${n} ${noun} on ${onePlace}` : `${n} ${noun} on Takes`;
  }
  // 'Maya asked to join Night Drive' already names its place.
  if (n === 1)
    return onePlace && !first.activity.summary.endsWith(onePlace)
      ? `${first.activity.summary} – ${onePlace}`
      : first.activity.summary;
  return onePlace ? `${n} new notifications on ${onePlace}` : `${n} new notifications on Takes`;
}

/** "23 Nov 2026, 19:40 UTC": when an event happened (emails are read anywhere; UTC says which). */
export function formatWhen(iso: string): string {
  const d = new Date(iso);
  const months = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

/**
 * The batch email: each event on its own lines (when, what, a link that opens it — a comment's
 * link seeks to its time), a footer saying why it was sent, and the one-click unsubscribe link
 * and headers (RFC 8058). What people wrote (names, titles, a visitor's comment) goes through
 * `mailText`, so none of it poses as a link.
 */
export function batchEmail(input: {
  to: string;
  items: BatchItem[];
  publicUrl: string;
  unsubscribeToken: string;
}): MailMessage {
  const unsubscribeUrl = `${input.publicUrl}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(input.unsubscribeToken)}`;
  const lines: string[] = [];
  for (const item of input.items) {
    lines.push(`${formatWhen(item.activity.created_at)} · ${mailText(item.activity.summary)}`);
    if (item.place) lines.push(`  in ${mailText(item.place)}`);
    if (item.activity.href) lines.push(`  ${input.publicUrl}${item.activity.href}`);
    lines.push('');
  }
  const places = [...new Set(input.items.map((i) => i.place).filter((p): p is string => !!p))];
  const categories = [...new Set(input.items.map((i) => i.category))];
  const why =
    places.length > 0
      ? `You get this because you are a member of ${places.map((place) => mailText(place)).join(', ')} on Takes.`
      : 'You get this because you are a member of a project on Takes.';
  const about = categories.map((c) => CATEGORY_WORDS[c]).join(', ');
  return {
    to: input.to,
    subject: mailText(batchSubject(input.items)),
    text: [
      ...lines,
      '--',
      `${why} Unsubscribe: ${unsubscribeUrl}`,
      `(Stops emails about ${about}; you still see them in Takes. Change this in Settings: ${input.publicUrl}/settings)`,
    ].join('\n'),
    headers: {
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** The page the unsubscribe link opens. Only fixed words: nothing from the request is echoed. */
export function unsubscribedPage(categories: NotificationCategory[], publicUrl: string): string {
  const about = categories.map((c) => CATEGORY_WORDS[c]).join(', ');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    '<title>Unsubscribed – Takes</title></head>',
    '<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem">',
    '<h1>You are unsubscribed</h1>',
    `<p>You will no longer get emails about ${about}. You still see them in Takes.</p>`,
    `<p><a href="${publicUrl}/settings">Change your notification settings</a></p>`,
    '</body></html>',
  ].join('\n');
}
