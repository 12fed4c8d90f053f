/**
 * The repos module's public face: repositories (the service others ask, e.g. for what a
 * repository looks like after its ownership changed), publishing bounces into them, and the
 * bounce rows another module may publish (a guest's file added as a bounce).
 */
export { ReposService } from './repos.service';
export { PublishService } from './publish.service';
export { BounceRows, type BounceContent, type PlacedBounce } from './bounce-rows';
