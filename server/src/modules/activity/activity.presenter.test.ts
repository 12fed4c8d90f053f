import { describe, expect, it } from 'vitest';
import type { ActivityRow } from './activity.repo';
import { toActivityItem } from './activity.presenter';

const row = (overrides: Partial<ActivityRow>): ActivityRow => ({
  id: 'a1',
  project_id: 'p1',
  repo_id: null,
  actor_id: 'u1',
  actor_name: 'Ana',
  kind: 'version.uploaded',
  target_id: 'v1',
  data: JSON.stringify({
    version_id: 'v1',
    version_number: 1,
    branch_id: 'b1',
    branch_name: 'main',
  }),
  created_at: '2026-11-23T19:40:00.000Z',
  display_name: null,
  user_name: 'Ana',
  user_email: 'ana@label.example',
  avatar_key: null,
  profile_updated_at: null,
  ...overrides,
});
const member = { seesInvitedAddresses: false };

describe('the activity presenter: one line per event, for the panels and the notifications', () => {
  it('names an email-and-password account by the part of its address before the @, never "Unknown User"', () => {
    const item = toActivityItem(
      row({ user_name: '', actor_name: null, user_email: 'lena.k@studio.example' }),
      member,
    );
    expect(item.actor.name).toBe('lena.k');
    expect(item.summary).toBe('lena.k uploaded Version 1 to main');
    expect(
      toActivityItem(
        row({ user_name: 'lena.k@studio.example', user_email: 'lena.k@studio.example' }),
        member,
      ).actor.name,
    ).toBe('lena.k');
  });

  it('prefers the display name now, then the stored name of an account that is gone', () => {
    expect(toActivityItem(row({ display_name: 'DJ Ana' }), member).summary).toBe(
      'DJ Ana uploaded Version 1 to main',
    );
    const gone = row({ user_name: null, user_email: null, actor_name: 'Ana' });
    expect(toActivityItem(gone, member).actor.name).toBe('Ana');
    expect(toActivityItem({ ...gone, actor_name: null }, member).actor.name).toBe('Unknown User');
    const visitor = row({ actor_id: null, actor_name: null, user_name: null, user_email: null });
    expect(toActivityItem(visitor, member).actor.name).toBe('Anonymous');
  });

  it("reads the data its writers keep: a bounce's title and commit, a member's name, a link's name", () => {
    const bounce = toActivityItem(
      row({
        project_id: null,
        repo_id: 'r1',
        kind: 'bounce.published',
        data: JSON.stringify({ bounce_name: 'Mix 3', sha: 'f00d', branch_name: 'main' }),
      }),
      member,
    );
    expect(bounce.summary).toBe("Ana published the bounce 'Mix 3'");
    expect(bounce.href).toBe('/repositories/r1/commit/f00d');
    const removed = row({ kind: 'member.removed', data: JSON.stringify({ member_name: 'Sam' }) });
    expect(toActivityItem(removed, member).summary).toBe('Ana removed Sam');
    const played = row({
      actor_id: null,
      actor_name: 'A listener',
      kind: 'link.first_played',
      data: JSON.stringify({ link_name: 'For Lee', version_id: 'v1', branch_id: 'b1' }),
    });
    expect(toActivityItem(played, member)).toMatchObject({
      summary: "A listener played the share link 'For Lee' for the first time",
      href: '/projects/p1/branches/b1/versions/v1',
    });
  });

  it("opens a collection link's first play on the collection", () => {
    const played = row({
      actor_id: null,
      actor_name: 'Ana',
      kind: 'collection_link.first_played',
      data: JSON.stringify({ collection_id: 'c1', collection_name: 'For the label' }),
    });
    expect(toActivityItem(played, member)).toMatchObject({
      summary: "Ana played the collection 'For the label' for the first time",
      href: '/collections/c1',
    });
  });
});

describe('a notification of an invitation', () => {
  // Its readers are never the inviter (the owner, who alone may read the address).
  it('names no address, only the role, as the feed does for members', () => {
    const item = toActivityItem(
      row({
        kind: 'member.invited',
        target_id: 'i1',
        data: JSON.stringify({ email: 'secret-collab@label.example', role: 'editor' }),
      }),
      member,
    );
    expect(item.summary).toBe('Ana invited someone as Editor');
    expect(JSON.stringify(item)).not.toContain('secret-collab');
  });
});
