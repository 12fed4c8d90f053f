import { describe, expect, it } from 'vitest';
import type { ActivityTable } from '../db/schema';
import { liveEventOf } from './live-event';

const row = (overrides: Partial<ActivityTable>): ActivityTable => ({
  id: 'a1',
  project_id: 'p1',
  repo_id: null,
  actor_id: 'u1',
  actor_name: null,
  kind: 'comment.posted',
  target_id: 'c1',
  data: '{}',
  created_at: '2026-11-23T19:00:00.000Z',
  ...overrides,
});

describe('liveEventOf', () => {
  it("takes a comment's version from its data", () => {
    expect(liveEventOf(row({ data: JSON.stringify({ versionId: 'v1', timestamp: 83 }) }))).toEqual({
      type: 'activity',
      activityId: 'a1',
      kind: 'comment.posted',
      projectId: 'p1',
      repoId: null,
      versionId: 'v1',
    });
  });

  it("takes a version event's target as its version when the data does not say", () => {
    expect(liveEventOf(row({ kind: 'version.processed', target_id: 'v2' })).versionId).toBe('v2');
    // As the activity log writes it for comments.
    expect(
      liveEventOf(row({ kind: 'comment.posted', data: JSON.stringify({ version_id: 'v3' }) }))
        .versionId,
    ).toBe('v3');
    expect(liveEventOf(row({ kind: 'branch.created', target_id: 'b1' })).versionId).toBeNull();
  });

  it('names the users it concerns when the data lists them, and survives bad data', () => {
    expect(liveEventOf(row({ data: JSON.stringify({ userIds: ['u2', 'u3'] }) })).userIds).toEqual([
      'u2',
      'u3',
    ]);
    expect(liveEventOf(row({ data: 'not json' })).versionId).toBeNull();
    expect(
      liveEventOf(row({ repo_id: 'r1', project_id: null, kind: 'bounce.published' })),
    ).toMatchObject({ projectId: null, repoId: 'r1', versionId: null });
  });

  it("tells a collection link's first play to the collection's owner alone, not the project", () => {
    const event = liveEventOf(
      row({
        kind: 'collection_link.first_played',
        actor_id: null,
        data: JSON.stringify({ owner_id: 'u9', collection_id: 'c9' }),
      }),
    );
    expect(event).toMatchObject({ projectId: null, userIds: ['u9'] });
    expect(liveEventOf(row({ kind: 'collection_link.first_played', data: '{}' })).userIds).toEqual(
      [],
    );
    // A bounce's first play: not the repository's members either.
    expect(
      liveEventOf(
        row({
          kind: 'collection_link.first_played',
          project_id: null,
          repo_id: 'r1',
          data: JSON.stringify({ owner_id: 'u9', version_id: 'v1' }),
        }),
      ),
    ).toMatchObject({ projectId: null, repoId: null, versionId: null, userIds: ['u9'] });
  });
});
