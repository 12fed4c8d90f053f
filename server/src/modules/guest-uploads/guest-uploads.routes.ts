import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import { sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { hideShareUrls } from '../sharing';
import type { GuestFilesService } from './guest-files.service';
import type { GuestIntake } from './guest-intake.service';
import type { UploadLinksService } from './upload-links.service';

const api = endpoints.guestUploads;

/** The team's side: upload links, and the files guests sent (signed in, through the policy). */
export const guestUploadTeamRoutes =
  (deps: {
    links: UploadLinksService;
    files: GuestFilesService;
    storage: ObjectStore;
  }): FastifyPluginAsync =>
  (app) => {
    const { links, files } = deps;
    route(app, api.createUploadLink, {}, async (request, reply) => {
      const link = await links.create(userOf(request).id, request.params.projectId, request.body);
      return reply.status(201).send(link);
    });
    route(app, api.listUploadLinks, {}, (request) =>
      links.list(userOf(request).id, request.params.projectId),
    );
    route(app, api.createRepoUploadLink, {}, async (request, reply) => {
      const link = await links.createForRepo(userOf(request).id, request.params.id, request.body);
      return reply.status(201).send(link);
    });
    route(app, api.listRepoUploadLinks, {}, (request) =>
      links.listForRepo(userOf(request).id, request.params.id),
    );
    route(app, api.revokeUploadLink, {}, async (request, reply) => {
      await links.revoke(userOf(request).id, request.params.id);
      return reply.status(204).send();
    });
    route(app, api.listGuestFiles, {}, (request) =>
      files.list(userOf(request).id, request.params.projectId, request.query.branch_id),
    );
    route(app, api.listRepoGuestFiles, {}, (request) =>
      files.listForRepo(userOf(request).id, request.params.id, request.query.branch),
    );
    route(app, api.streamGuestFile, {}, async (request, reply) => {
      const audio = await files.audio(userOf(request).id, request.params.id, request.query.quality);
      return sendStoredAudio(request, reply, deps.storage, audio);
    });
    route(app, api.acceptGuestFile, {}, async (request, reply) => {
      const accepted = await files.accept(userOf(request).id, request.params.id, request.body);
      return reply.status(201).send(accepted);
    });
    route(app, api.declineGuestFile, {}, async (request, reply) => {
      await files.decline(userOf(request).id, request.params.id);
      return reply.status(204).send();
    });
    return Promise.resolve();
  };

/** The guest's side: the page of an upload link and its password (the key is the credential). */
export const guestUploadLinkRoutes =
  (deps: { intake: GuestIntake }): FastifyPluginAsync =>
  (app) => {
    hideShareUrls(app);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
    });
    route(app, api.openUploadLink, {}, (request) =>
      deps.intake.page(request.params.hash, request.ip, request.headers.cookie),
    );
    route(app, api.unlockUploadLink, {}, async (request, reply) => {
      const cookie = await deps.intake.unlock(
        request.params.hash,
        request.ip,
        request.body.password,
      );
      return reply.header('set-cookie', cookie).status(204).send();
    });
    return Promise.resolve();
  };
