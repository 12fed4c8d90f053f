import type { RecentBounce } from '@takes/contract';
import { describe, expect, it } from 'vitest';
import { coverCandidates, LOGO_URL } from './cover';
import { groupRecent } from './group-recent';

function item(overrides: Partial<RecentBounce>): RecentBounce {
  return {
    kind: 'bounce',
    id: 'b1',
    title: 'Mix',
    created_at: '2026-01-01T00:00:00.000Z',
    duration: 10,
    stream_url: '/api/repos/r1/bounces/b1/stream',
    waveform_json: null,
    repo_id: 'r1',
    review_status: null,
    repo_name: 'Album',
    branch: 'main',
    commit_sha: 'a'.repeat(40),
    cover_url: null,
    project_id: null,
    project_name: null,
    version_number: null,
    ...overrides,
  };
}

describe('groupRecent', () => {
  it('groups bounces by repository plus title and versions by project, newest first', () => {
    const groups = groupRecent([
      item({ id: 'b1', created_at: '2026-01-01T00:00:00.000Z' }),
      item({ id: 'b2', created_at: '2026-01-03T00:00:00.000Z' }),
      item({ id: 'b3', title: 'Other', created_at: '2026-01-02T00:00:00.000Z' }),
      item({ id: 'b4', repo_id: 'r2', created_at: '2026-01-01T12:00:00.000Z' }),
      item({
        kind: 'version',
        id: 'v1',
        repo_id: null,
        project_id: 'p1',
        title: 'Take one',
        created_at: '2026-01-02T12:00:00.000Z',
      }),
      item({
        kind: 'version',
        id: 'v2',
        repo_id: null,
        project_id: 'p1',
        title: 'Take two',
        created_at: '2026-01-04T00:00:00.000Z',
      }),
    ]);
    expect(groups.map((g) => g.items.map((i) => i.id))).toEqual([
      ['v2', 'v1'],
      ['b2', 'b1'],
      ['b3'],
      ['b4'],
    ]);
  });

  it('keeps titles that differ only in case apart and returns nothing for no items', () => {
    expect(groupRecent([item({ id: 'a' }), item({ id: 'b', title: 'mix' })])).toHaveLength(2);
    expect(groupRecent([])).toEqual([]);
  });
});

describe('coverCandidates', () => {
  it('starts with the item cover, then falls back to the avatar and the logo', () => {
    expect(
      coverCandidates({ itemCover: '/item.png', repoCover: '/repo.png', avatarUrl: '/me.png' }),
    ).toEqual(['/item.png', '/me.png', LOGO_URL]);
  });

  it('uses the repository cover, then the avatar, then the logo when the item has none', () => {
    expect(coverCandidates({ repoCover: '/repo.png', avatarUrl: '/me.png' })).toEqual([
      '/repo.png',
      '/me.png',
      LOGO_URL,
    ]);
    expect(coverCandidates({ avatarUrl: '/me.png' })).toEqual(['/me.png', LOGO_URL]);
    expect(coverCandidates({})).toEqual([LOGO_URL]);
  });
});
