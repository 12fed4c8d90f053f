import type { RateLimiter } from './auth/rate-limiter';
import type { AppDeps } from './deps';
import type { AccessPolicy } from './modules/access';
import type { ActivityLog } from './modules/activity';
import type { CollectionLinksService } from './modules/collections/collection-links.service';
import {
  AccessRequestsRepo,
  AccessRequestsService,
  InvitationsService,
  InviteLinksRepo,
  InviteLinksService,
  MembersService,
  type EmailCheck,
} from './modules/members';
import { InvitationsRepo } from './modules/members/invitations.repo';
import { MembersRepo } from './modules/members/members.repo';
import type { ProjectsService } from './modules/projects';
import type { ReposService } from './modules/repos';
import type { SharingService } from './modules/sharing';

/**
 * The members of projects, repositories and collections and the doors in, wired for
 * createServices: email invitations, and since issue 47 invite links and access requests from a
 * share link or a collection link (each link opened by its own module, as its listening routes
 * open it).
 */
export function createDoorServices(ctx: {
  deps: AppDeps;
  access: AccessPolicy;
  activity: ActivityLog;
  limiter: RateLimiter;
  emailCheck: EmailCheck;
  sharing: Pick<SharingService, 'open'>;
  collectionLinks: Pick<CollectionLinksService, 'open' | 'item'>;
  /** A handed-over project or repository is answered by its own module. */
  projects: Pick<ProjectsService, 'get'>;
  repos: Pick<ReposService, 'get'>;
}) {
  const { deps, access, activity, limiter, sharing, collectionLinks } = ctx;
  const db = deps.database.db;
  const { clock } = deps;
  const membersRepo = new MembersRepo(db);
  const invitationsRepo = new InvitationsRepo(db);
  const members = new MembersService({
    access,
    repo: membersRepo,
    invitations: invitationsRepo,
    clock,
    activity,
    projects: ctx.projects,
    repos: ctx.repos,
  });
  const invitations = new InvitationsService({
    access,
    repo: invitationsRepo,
    members: membersRepo,
    mailer: deps.mailer,
    clock,
    limiter,
    activity,
    publicUrl: deps.config.publicUrl,
    // Accepting an invitation needs a proven address: the auth module checks and mails codes.
    emailCheck: ctx.emailCheck,
  });
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
  return { members, invitations, inviteLinks, accessRequests };
}
