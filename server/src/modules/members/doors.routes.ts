import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import { hideShareUrls } from '../sharing';
import type { AccessRequestsService } from './access-requests.service';
import type { InviteLinksService } from './invite-links.service';

/**
 * Invite links and access requests. Everything needs a signed-in caller except `viewInviteLink`,
 * which shows a link's offer to whoever holds it. Keys are secrets here as on share links.
 */
export const doorRoutes =
  (deps: {
    inviteLinks: InviteLinksService;
    accessRequests: AccessRequestsService;
    /** Gives the visitor who opened a live link the pass an invite-only sign-up accepts. */
    signups: { inviteLinkCookie(key: string): string };
  }): FastifyPluginAsync =>
  (app) => {
    const { inviteLinks, accessRequests } = deps;
    hideShareUrls(app);
    const invite = endpoints.inviteLinks;
    const ask = endpoints.accessRequests;

    route(app, invite.listInviteLinks, {}, (request) =>
      inviteLinks.list(userOf(request).id, request.params.projectId),
    );
    route(app, invite.createInviteLink, {}, (request) =>
      inviteLinks.create(userOf(request).id, request.params.projectId, request.body),
    );
    route(app, invite.revokeInviteLink, {}, (request) =>
      inviteLinks.revoke(userOf(request).id, request.params.inviteLinkId),
    );
    route(app, invite.viewInviteLink, {}, async (request, reply) => {
      const view = await inviteLinks.view(request.body.key, request.ip);
      reply.header('set-cookie', deps.signups.inviteLinkCookie(request.body.key));
      return view;
    });
    route(app, invite.joinInviteLink, {}, (request) =>
      inviteLinks.join(userOf(request), request.body.key, request.ip),
    );

    const linkOf = (request: {
      params: { hash: string };
      ip: string;
      headers: { cookie?: string };
    }) => ({
      hash: request.params.hash,
      ip: request.ip,
      cookies: request.headers.cookie,
    });
    route(app, ask.requestAccessFromLink, {}, (request) =>
      accessRequests.fromVersionLink(userOf(request).id, linkOf(request), request.body.note),
    );
    route(app, ask.requestAccessFromCollectionLink, {}, (request) =>
      accessRequests.fromCollectionLink(userOf(request).id, linkOf(request), request.body),
    );
    route(app, ask.listAccessRequests, {}, (request) =>
      accessRequests.list(userOf(request).id, request.params.projectId),
    );
    route(app, ask.grantAccessRequest, {}, (request) =>
      accessRequests.grant(userOf(request).id, request.params.requestId, request.body.role),
    );
    route(app, ask.declineAccessRequest, {}, (request) =>
      accessRequests.decline(userOf(request).id, request.params.requestId),
    );
    return Promise.resolve();
  };
