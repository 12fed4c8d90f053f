/**
 * The repos module's public face: repositories (the service others ask, e.g. for what a
 * repository looks like after its ownership changed) and publishing bounces into them.
 */
export { ReposService } from './repos.service';
export { PublishService } from './publish.service';
