import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import { sendObject } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { hideShareUrls, PROCESSING_RETRY_AFTER_SECONDS } from '../sharing';
import type { BlindListening, ListenerOf } from './blind-listening';
import type { BlindTestsService } from './blind-tests.service';

const api = endpoints.blindTests;

/** The owner's side: every route needs a signed-in user who may share the project. */
export const blindTestRoutes =
  (deps: { service: BlindTestsService }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    route(app, api.createBlindTest, {}, async (request, reply) => {
      const test = await service.create(userOf(request).id, request.params.projectId, request.body);
      return reply.status(201).send(test);
    });
    route(app, api.listBlindTests, {}, (request) =>
      service.list(userOf(request).id, request.params.projectId),
    );
    route(app, api.getBlindTestResults, {}, (request) =>
      service.results(userOf(request).id, request.params.id),
    );
    route(app, api.revokeBlindTest, {}, async (request, reply) => {
      await service.revoke(userOf(request).id, request.params.id);
      return reply.status(204).send();
    });
    route(app, api.markBlindTestWinner, {}, (request) =>
      service.markWinner(userOf(request).id, request.params.id, request.body.version_id),
    );
    return Promise.resolve();
  };

/** A new listener's cookie goes with the answer that made it. */
function withCookie(reply: FastifyReply, { setCookie }: ListenerOf): FastifyReply {
  if (setCookie) reply.header('set-cookie', setCookie);
  return reply;
}

/** What anyone holding a blind test's link may do: listen by letter, vote, run the ABX trials. */
export const publicBlindTestRoutes =
  (deps: { listening: BlindListening; storage: ObjectStore }): FastifyPluginAsync =>
  (app) => {
    const { listening } = deps;
    hideShareUrls(app);
    // Nothing a listener is sent may be kept by a shared cache, or tell the options apart.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
    });

    const opened = (request: {
      params: { hash: string };
      ip: string;
      headers: { cookie?: string };
    }) => listening.open(request.params.hash, request.ip, request.headers.cookie);

    route(app, api.openBlindTest, {}, async (request, reply) => {
      const test = await opened(request);
      const who = await listening.listener(test, request.headers.cookie, request.ip, true);
      return withCookie(reply, who).send(await listening.page(test, who.listener));
    });

    route(app, api.unlockBlindTest, {}, async (request, reply) => {
      const cookie = await listening.unlock(request.params.hash, request.ip, request.body.password);
      return reply.header('set-cookie', cookie).status(204).send();
    });

    route(app, api.streamBlindOption, {}, async (request, reply) => {
      const test = await opened(request);
      const { listener } = await listening.listener(
        test,
        request.headers.cookie,
        request.ip,
        false,
      );
      try {
        const { key } = await listening.audio(test, listener, request.params.optionId);
        return await sendObject(reply, deps.storage, key, request.headers.range, {
          contentType: 'audio/mpeg',
          cacheControl: 'private, no-store',
          noValidators: true,
        });
      } catch (error) {
        if ((error as { code?: string }).code === 'version_processing')
          reply.header('retry-after', String(PROCESSING_RETRY_AFTER_SECONDS));
        throw error;
      }
    });

    // Acting needs the letters dealt when the page was opened: the listener's cookie.
    route(app, api.voteBlindTest, {}, async (request) => {
      const test = await opened(request);
      const { listener } = await listening.listener(
        test,
        request.headers.cookie,
        request.ip,
        false,
      );
      return listening.vote(test, listener, request.body);
    });

    route(app, api.startBlindTrial, {}, async (request) => {
      const test = await opened(request);
      const { listener } = await listening.listener(
        test,
        request.headers.cookie,
        request.ip,
        false,
      );
      return listening.startTrial(test, listener, request.body.name);
    });

    route(app, api.answerBlindTrial, {}, async (request) => {
      const test = await opened(request);
      const { listener } = await listening.listener(
        test,
        request.headers.cookie,
        request.ip,
        false,
      );
      return listening.answer(test, listener, request.body);
    });

    return Promise.resolve();
  };
