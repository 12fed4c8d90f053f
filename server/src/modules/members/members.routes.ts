import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { InvitationsService } from './invitations.service';
import type { MembersService } from './members.service';

const api = endpoints.members;

/**
 * Members of projects, repositories and collections, and invitations. Everything needs a signed-in caller
 * except `viewInvitation`, which shows a link's invitation to whoever holds it.
 */
export const memberRoutes =
  (deps: {
    service: MembersService;
    invitations: InvitationsService;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginAsync =>
  (app) => {
    const { service, invitations } = deps;
    const signedIn = { preHandler: deps.requireUser };
    const project = (id: string) => ({ kind: 'project' as const, id });
    const repository = (id: string) => ({ kind: 'repository' as const, id });

    // Projects
    route(app, api.listProjectMembers, signedIn, (request) =>
      service.list(userOf(request).id, project(request.params.projectId)),
    );
    route(app, api.inviteToProject, signedIn, (request) =>
      invitations.invite(userOf(request).id, project(request.params.projectId), request.body),
    );
    route(app, api.changeProjectMemberRole, signedIn, (request) =>
      service.changeRole(
        userOf(request).id,
        project(request.params.projectId),
        request.params.userId,
        request.body.role,
      ),
    );
    route(app, api.removeProjectMember, signedIn, (request) =>
      service.remove(userOf(request).id, project(request.params.projectId), request.params.userId, {
        revokeLinks: request.query.revoke_links === 'true',
      }),
    );
    route(app, api.leaveProject, signedIn, (request) =>
      service.leave(userOf(request).id, project(request.params.projectId)),
    );
    route(app, api.transferProject, signedIn, (request) =>
      service.transferProject(userOf(request).id, request.params.projectId, request.body.user_id),
    );

    // Repositories
    route(app, api.listRepoMembers, signedIn, (request) =>
      service.list(userOf(request).id, repository(request.params.id)),
    );
    route(app, api.inviteToRepo, signedIn, (request) =>
      invitations.invite(userOf(request).id, repository(request.params.id), request.body),
    );
    route(app, api.changeRepoMemberRole, signedIn, (request) =>
      service.changeRole(
        userOf(request).id,
        repository(request.params.id),
        request.params.userId,
        request.body.role,
      ),
    );
    route(app, api.removeRepoMember, signedIn, (request) =>
      service.remove(userOf(request).id, repository(request.params.id), request.params.userId),
    );
    route(app, api.leaveRepo, signedIn, (request) =>
      service.leave(userOf(request).id, repository(request.params.id)),
    );
    route(app, api.transferRepo, signedIn, (request) =>
      service.transferRepo(userOf(request).id, request.params.id, request.body.user_id),
    );

    // Collections (no ownership transfer)
    const collection = (id: string) => ({ kind: 'collection' as const, id });
    route(app, api.listCollectionMembers, signedIn, (request) =>
      service.list(userOf(request).id, collection(request.params.id)),
    );
    route(app, api.inviteToCollection, signedIn, (request) =>
      invitations.invite(userOf(request).id, collection(request.params.id), request.body),
    );
    route(app, api.changeCollectionMemberRole, signedIn, (request) =>
      service.changeRole(
        userOf(request).id,
        collection(request.params.id),
        request.params.userId,
        request.body.role,
      ),
    );
    route(app, api.removeCollectionMember, signedIn, (request) =>
      service.remove(userOf(request).id, collection(request.params.id), request.params.userId),
    );
    route(app, api.leaveCollection, signedIn, (request) =>
      service.leave(userOf(request).id, collection(request.params.id)),
    );

    // Invitations
    route(app, api.resendInvitation, signedIn, (request) =>
      invitations.resend(userOf(request).id, request.params.invitationId),
    );
    route(app, api.revokeInvitation, signedIn, (request) =>
      invitations.revoke(userOf(request).id, request.params.invitationId),
    );
    route(app, api.viewInvitation, {}, (request) =>
      invitations.view(request.body.token, request.ip),
    );
    route(app, api.acceptInvitation, signedIn, (request) =>
      invitations.accept(userOf(request), request.body.token, request.ip),
    );
    return Promise.resolve();
  };
