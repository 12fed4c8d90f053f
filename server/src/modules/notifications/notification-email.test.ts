import { describe, expect, it } from 'vitest';
import type { ActivityItem } from '@takes/contract';
import { batchEmail, batchSubject, UnsubscribeTokens, type BatchItem } from './notification-email';
import { formatSeconds } from '../activity';
import { pagePath } from './notifications.service';

const activity = (summary: string): ActivityItem => ({
  id: 'a',
  kind: 'comment.posted',
  actor: { user_id: null, name: 'Maya', avatar_url: null },
  project_id: 'p',
  repo_id: null,
  summary,
  href: null,
  created_at: '2026-11-23T19:40:00.000Z',
});

describe('unsubscribe tokens', () => {
  const tokens = new UnsubscribeTokens('a-secret-key-a-secret-key-0123456789');

  it('carry the recipient and categories, signed', () => {
    const token = tokens.sign('user-1', ['versions', 'comments', 'comments']);
    expect(tokens.verify(token)).toEqual({
      userId: 'user-1',
      categories: ['comments', 'versions'],
    });
  });

  it('refuse a token signed with another key, changed, or naming an unknown category', () => {
    const token = tokens.sign('user-1', ['comments']);
    expect(
      new UnsubscribeTokens('another-secret-key-another-secret').verify(token),
    ).toBeUndefined();
    const [payload, sig] = token.split('.');
    expect(tokens.verify(`${payload}.${sig?.slice(0, -1)}A`)).toBeUndefined();
    const other = Buffer.from('user-2|comments').toString('base64url');
    expect(tokens.verify(`${other}.${sig}`)).toBeUndefined();
    const unknown = tokens
      .sign('user-1', ['comments'])
      .replace(/^[^.]+/, Buffer.from('user-1|all').toString('base64url'));
    expect(tokens.verify(unknown)).toBeUndefined();
    expect(tokens.verify('not-a-token')).toBeUndefined();
  });
});

describe('batch subjects', () => {
  const item = (over: Partial<BatchItem>): BatchItem => ({
    category: 'comments',
    activity: activity('Maya commented at 1:23 on Version 2'),
    place: 'Client Mix',
    versionLabel: 'Version 2',
    ...over,
  });

  it('name the version when every comment is on one', () => {
    expect(batchSubject([item({}), item({}), item({})])).toBe(
      '3 new comments on Client Mix – Version 2',
    );
    expect(batchSubject([item({})])).toBe('1 new comment on Client Mix – Version 2');
    expect(batchSubject([item({}), item({ versionLabel: 'Version 3' })])).toBe(
      '2 new comments on Client Mix',
    );
  });

  it("keep a visitor's words from posing as links; Takes' own links stay whole", () => {
    const mail = batchEmail({
      to: 'owner@example.test',
      items: [
        item({
          activity: {
            ...activity('Anonymous commented: "Re-sign in at https://takes.evil.example/login"'),
            href: '/projects/p/versions/v?t=83',
          },
          place: 'Mix www.phish.example',
        }),
      ],
      publicUrl: 'https://takes.example.com',
      unsubscribeToken: 'token',
    });
    expect(mail.text).toContain('Re-sign in at https[:]//takes[.]evil[.]example/login');
    expect(mail.text).toContain('in Mix www[.]phish[.]example');
    expect(mail.text).not.toMatch(/evil\.example|phish\.example/);
    expect(mail.text).toContain('https://takes.example.com/projects/p/versions/v?t=83');
    expect(mail.subject).toBe('1 new comment on Mix www[.]phish[.]example – Version 2');
  });

  it('say what happened for one event, and count a mixed batch', () => {
    const played = item({
      category: 'versions',
      activity: activity(
        "A listener played the share link 'Client Mix - Version 2' for the first time",
      ),
    });
    expect(batchSubject([played])).toBe(
      "A listener played the share link 'Client Mix - Version 2' for the first time – Client Mix",
    );
    expect(batchSubject([played, item({ place: 'Night Drive' })])).toBe(
      '2 new notifications on Takes',
    );
  });
});

describe('presenter helpers', () => {
  it('formats a position in a track', () => {
    expect(formatSeconds(83)).toBe('1:23');
    expect(formatSeconds(5)).toBe('0:05');
    expect(formatSeconds(3723.9)).toBe('1:02:03');
  });

  it('matches pages by path only', () => {
    expect(pagePath('/projects/p/branches/b/versions/v?t=83')).toBe(
      '/projects/p/branches/b/versions/v',
    );
    expect(pagePath('https://takes.example/projects/p/#x')).toBe('/projects/p');
    expect(pagePath('/')).toBe('/');
  });
});
