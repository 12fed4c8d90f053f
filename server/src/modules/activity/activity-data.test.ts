import { describe, expect, it } from 'vitest';
import type { ActivityLog } from './activity-log';
import type { Executor } from './activity.repo';
import { parseActivityData } from './activity-data';

/**
 * Checked by the typecheck (`tsc`), not run: a writer whose data does not fit its kind fails
 * to compile (each `@ts-expect-error` must find its error, or tsc fails on it).
 */
async function writers(log: ActivityLog, db: Executor): Promise<void> {
  const actor = { userId: 'u1' };
  await log.record(db, {
    kind: 'bounce.published',
    repoId: 'r1',
    actor,
    data: { bounce_name: 'Mix 3', sha: 'f00d', branch_name: 'main' },
  });
  await log.record(db, {
    kind: 'bounce.published',
    repoId: 'r1',
    actor,
    // @ts-expect-error -- the keys no writer sets (the old notification presenter read `title`)
    data: { title: 'Mix 3', sha: 'f00d', branch_name: 'main' },
  });
  // @ts-expect-error -- a member's removal names them
  await log.record(db, { kind: 'member.removed', projectId: 'p1', actor });
  await log.record(db, {
    kind: 'member.removed',
    projectId: 'p1',
    actor,
    // @ts-expect-error -- `member_name`, not `memberName`
    data: { memberName: 'Sam' },
  });
  await log.record(db, { kind: 'project.made_public', projectId: 'p1', actor });
  // A version's own fields come from the version; the kind adds the rest.
  await log.recordForVersion(db, 'v1', {
    kind: 'link.created',
    actor,
    data: { link_name: 'For Lee' },
  });
  // @ts-expect-error -- a link's line names the link
  await log.recordForVersion(db, 'v1', { kind: 'link.created', actor });
  // @ts-expect-error -- only kinds about a version are recorded for one
  await log.recordForVersion(db, 'v1', { kind: 'member.left', actor, data: { role: 'viewer' } });
}

describe('activity data, typed per kind', () => {
  it('is checked where it is written (see `writers`, compiled by the typecheck)', () => {
    expect(typeof writers).toBe('function');
  });

  it('is read back defensively', () => {
    expect(parseActivityData('{"bounce_name":"Mix 3"}')).toEqual({ bounce_name: 'Mix 3' });
    expect(parseActivityData('not json')).toEqual({});
    expect(parseActivityData('null')).toEqual({});
  });
});
