/**
 * The members module's public face: members of projects, repositories and collections (roles,
 * removal, leaving, ownership transfer) and invitations by email.
 */
export { MembersService } from './members.service';
export { InvitationsService, type EmailCheck } from './invitations.service';
