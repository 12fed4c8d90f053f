/**
 * The members module's public face: members of projects, repositories and collections (roles,
 * removal, leaving, ownership transfer), invitations by email, invite links and access requests.
 */
export { MembersService } from './members.service';
export { InvitationsService, type EmailCheck } from './invitations.service';
export { InviteLinksRepo } from './invite-links.repo';
export { InviteLinksService } from './invite-links.service';
export { AccessRequestsRepo } from './access-requests.repo';
export { AccessRequestsService } from './access-requests.service';
