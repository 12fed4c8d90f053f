import type { FastifyPluginAsync } from 'fastify';
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
  (deps: { service: MembersService; invitations: InvitationsService }): FastifyPluginAsync =>
  (app) => {
    const { service, invitations } = deps;
    const project = (id: string) => ({ kind: 'project' as const, id });
    const repository = (id: string) => ({ kind: 'repository' as const, id });

    // Projects
    route(app, api.listProjectMembers, {}, (request) =>
      service.list(userOf(request).id, project(request.params.projectId)),
    );
    route(app, api.inviteToProject, {}, (request) =>
      invitations.invite(userOf(request).id, project(request.params.projectId), request.body),
    );
    route(app, api.changeProjectMemberRole, {}, (request) =>
      service.changeRole(
        userOf(request).id,
        project(request.params.projectId),
        request.params.userId,
        request.body.role,
      ),
    );
    route(app, api.removeProjectMember, {}, (request) =>
      service.remove(userOf(request).id, project(request.params.projectId), request.params.userId, {
        revokeLinks: request.query.revoke_links === 'true',
      }),
    );
    route(app, api.leaveProject, {}, (request) =>
      service.leave(userOf(request).id, project(request.params.projectId)),
    );
    route(app, api.transferProject, {}, (request) =>
      service.transferProject(userOf(request).id, request.params.projectId, request.body.user_id),
    );

    // Repositories
    route(app, api.listRepoMembers, {}, (request) =>
      service.list(userOf(request).id, repository(request.params.id)),
    );
    route(app, api.inviteToRepo, {}, (request) =>
      invitations.invite(userOf(request).id, repository(request.params.id), request.body),
    );
    route(app, api.changeRepoMemberRole, {}, (request) =>
      service.changeRole(
        userOf(request).id,
        repository(request.params.id),
        request.params.userId,
        request.body.role,
      ),
    );
    route(app, api.removeRepoMember, {}, (request) =>
      service.remove(userOf(request).id, repository(request.params.id), request.params.userId),
    );
    route(app, api.leaveRepo, {}, (request) =>
      service.leave(userOf(request).id, repository(request.params.id)),
    );
    route(app, api.transferRepo, {}, (request) =>
      service.transferRepo(userOf(request).id, request.params.id, request.body.user_id),
    );

    // Collections (no ownership transfer)
    const collection = (id: string) => ({ kind: 'collection' as const, id });
    route(app, api.listCollectionMembers, {}, (request) =>
      service.list(userOf(request).id, collection(request.params.id)),
    );
    route(app, api.inviteToCollection, {}, (request) =>
      invitations.invite(userOf(request).id, collection(request.params.id), request.body),
    );
    route(app, api.changeCollectionMemberRole, {}, (request) =>
      service.changeRole(
        userOf(request).id,
        collection(request.params.id),
        request.params.userId,
        request.body.role,
      ),
    );
    route(app, api.removeCollectionMember, {}, (request) =>
      service.remove(userOf(request).id, collection(request.params.id), request.params.userId),
    );
    route(app, api.leaveCollection, {}, (request) =>
      service.leave(userOf(request).id, collection(request.params.id)),
    );

    // Invitations
    route(app, api.resendInvitation, {}, (request) =>
      invitations.resend(userOf(request).id, request.params.invitationId),
    );
    route(app, api.revokeInvitation, {}, (request) =>
      invitations.revoke(userOf(request).id, request.params.invitationId),
    );
    route(app, api.viewInvitation, {}, (request) =>
      invitations.view(request.body.token, request.ip),
    );
    route(app, api.acceptInvitation, {}, (request) =>
      invitations.accept(userOf(request), request.body.token, request.ip),
    );
    return Promise.resolve();
  };
