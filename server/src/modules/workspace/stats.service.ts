import type { Clock } from '../../clock';
import type { WorkspaceRepo } from './workspace.repo';
import type { AccessPolicy } from '../access';
import type { ActivityService } from '../activity/activity.service';

const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

/** The dashboard's figures for one person: their own and shared projects. */
export class StatsService {
  constructor(
    private readonly deps: {
      repo: WorkspaceRepo;
      clock: Clock;
      access: AccessPolicy;
      /** Counts the Activity card's events. */
      activity: Pick<ActivityService, 'lastMonthCount'>;
    },
  ) {}

  async stats(userId: string) {
    const since = new Date(this.deps.clock.now().getTime() - MONTH_MS).toISOString();
    const [{ projects, branches, recent }, activityLastMonth] = await Promise.all([
      this.deps.repo.stats(userId, since),
      this.deps.activity.lastMonthCount(userId),
    ]);
    const last = projects?.last ?? null;
    return {
      projects: Number(projects?.n ?? 0),
      tracks: Number(branches?.n ?? 0),
      last_update: last ? new Date(String(last)).toISOString() : null,
      versions_last_month: Number(recent?.n ?? 0),
      activity_last_month: activityLastMonth,
    };
  }
}
