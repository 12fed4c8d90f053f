/**
 * The activity module's public face: the log every service records its events in (inside the
 * transaction of the change), and the listener hook notifications and live updates attach to.
 */
export {
  ActivityLog,
  versionData,
  type ActivityEvent,
  type ActivityListener,
  type Actor,
} from './activity-log';
export type { Executor, VersionFacts } from './activity.repo';
export { cursorTime } from './activity.service';
export { invitedSummary } from './activity.presenter';
