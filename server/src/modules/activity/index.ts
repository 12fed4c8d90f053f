/**
 * The activity module's public face: the log every service records its events in (inside the
 * transaction of the change), the listener hook notifications and live updates attach to, the
 * data each kind of event keeps, and the one presenter of an activity line.
 */
export {
  ActivityLog,
  versionData,
  type ActivityEvent,
  type ActivityListener,
  type Actor,
  type UnplacedActivityEvent,
  type VersionActivityEvent,
} from './activity-log';
export {
  parseActivityData,
  type ActivityDataOf,
  type StoredActivityData,
  type VersionRef,
} from './activity-data';
export type { ActivityRow, Executor, VersionFacts } from './activity.repo';
export { cursorTime } from './activity.service';
export {
  formatSeconds,
  invitedSummary,
  toActivityItem,
  type ActivityReader,
} from './activity.presenter';
