import type { RateLimiter } from './auth/rate-limiter';
import type { AppDeps } from './deps';
import type { AccessPolicy } from './modules/access';
import type { ActivityLog } from './modules/activity';
import type { CollectionLinksService } from './modules/collections/collection-links.service';
import {
  AccessRequestsRepo,
  AccessRequestsService,
  InviteLinksRepo,
  InviteLinksService,
  type EmailCheck,
} from './modules/members';
import type { SharingService } from './modules/sharing';

/**
 * The doors into a project besides email invitations (issue 47), wired for createServices: invite
 * links, and access requests from a share link or a collection link (each link opened by its own
 * module, as its listening routes open it).
 */
export function createDoorServices(ctx: {
  deps: AppDeps;
  access: AccessPolicy;
  activity: ActivityLog;
  limiter: RateLimiter;
  emailCheck: EmailCheck;
  sharing: Pick<SharingService, 'open'>;
  collectionLinks: Pick<CollectionLinksService, 'open' | 'item'>;
}) {
  const { deps, access, activity, limiter, sharing, collectionLinks } = ctx;
  const db = deps.database.db;
  const inviteLinks = new InviteLinksService({
    access,
    repo: new InviteLinksRepo(db),
    clock: deps.clock,
    limiter,
    activity,
    publicUrl: deps.config.publicUrl,
    emailCheck: ctx.emailCheck,
  });
  const accessRequests = new AccessRequestsService({
    access,
    repo: new AccessRequestsRepo(db),
    clock: deps.clock,
    limiter,
    activity,
    links: {
      async versionLink(hash, ip, cookies) {
        const { project } = await sharing.open(hash, ip, cookies);
        return { projectId: project.id, projectName: project.name };
      },
      async collectionItem(hash, ip, cookies, itemId) {
        const { item } = await collectionLinks.item(
          await collectionLinks.open(hash, ip, cookies),
          itemId,
        );
        return item.project_id
          ? { projectId: item.project_id, projectName: item.project_name ?? '' }
          : null;
      },
    },
  });
  return { inviteLinks, accessRequests };
}
