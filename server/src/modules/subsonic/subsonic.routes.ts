import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import { sendObject } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import type { PlayerAppsService, PlayerCaller } from './player-apps.service';
import { SUBSONIC_CALLS, type SubsonicParams } from './subsonic-calls';
import { COVER_SIZE_MAX, COVER_SIZE_MIN, type CoverSizer } from './subsonic-covers';
import { SubsonicError } from './subsonic-errors';
import { envelope, toJson, toXml, type SubsonicBody } from './subsonic-format';
import type { SubsonicService } from './subsonic.service';

/** Takes' own version, as OpenSubsonic's `serverVersion`. */
const SERVER_VERSION = '0.1.0';
/** A form body bigger than this is not a Subsonic call. */
const FORM_BODY_LIMIT = 64 * 1024;

const PASSWORD_AUTH =
  "Password and token sign-in are not supported: Takes never keeps your password. Make an API key on Settings → Devices ('Add a player app') and choose API key sign-in in your player app.";

/** The OpenSubsonic extensions served: API keys only, and calls sent as a form post. */
const EXTENSIONS = [
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'formPost', versions: [1] },
];

export interface SubsonicRouteDeps {
  service: SubsonicService;
  playerApps: PlayerAppsService;
  limiter: RateLimiter;
  storage: ObjectStore;
  covers: CoverSizer;
}

function paramsOf(request: FastifyRequest): SubsonicParams {
  const sources = [request.query, request.body].filter(
    (source): source is Record<string, unknown> => typeof source === 'object' && source !== null,
  );
  const all = (name: string): string[] =>
    sources.flatMap((source) => {
      const value = source[name];
      if (value === undefined) return [];
      return (Array.isArray(value) ? value : [value]).map(String);
    });
  return { all, get: (name) => all(name)[0] };
}

/** Sends a Subsonic answer in the format asked for (XML unless `f=json`). */
function answer(reply: FastifyReply, params: SubsonicParams, response: SubsonicBody) {
  const format = params.get('f');
  if (format === 'json')
    return reply.type('application/json; charset=utf-8').send(toJson(response));
  return reply.type('application/xml; charset=utf-8').send(toXml(response));
}

const failed = (reply: FastifyReply, params: SubsonicParams, error: SubsonicError) =>
  answer(
    reply,
    params,
    envelope('failed', { error: { code: error.code, message: error.message } }, SERVER_VERSION),
  );

/**
 * The OpenSubsonic API at `/rest/<call>` and `/rest/<call>.view`, GET or form POST: a player app
 * signs in with a key from Settings → Devices (`apiKey`), and sees what its person may hear.
 */
export const subsonicRoutes =
  (deps: SubsonicRouteDeps): FastifyPluginAsync =>
  (app) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => {
        const form: Record<string, string[]> = {};
        for (const [key, value] of new URLSearchParams(body as string))
          (form[key] ??= []).push(value);
        done(null, form);
      },
    );

    async function authenticate(request: FastifyRequest, params: SubsonicParams) {
      const apiKey = params.get('apiKey');
      const passwordish = ['u', 'p', 't', 's'].some((name) => params.get(name) !== undefined);
      if (apiKey !== undefined && passwordish)
        throw new SubsonicError(43, 'Give either apiKey or a user name and password, not both.');
      if (apiKey === undefined) {
        if (passwordish) throw new SubsonicError(42, PASSWORD_AUTH);
        throw new SubsonicError(10, 'Required parameter is missing: apiKey.');
      }
      // 20 wrong keys from an address in 10 minutes lock it out, right key or not. Each miss is
      // counted in one statement, so concurrent guesses past the 20th answer 0, never 44.
      const ip = request.ip;
      const lockedOut = () =>
        new SubsonicError(0, 'Too many wrong API keys from this address. Try again later.');
      if (await deps.limiter.isSpent(AUTH_RATE_RULES.playerKeyMissIp, ip)) throw lockedOut();
      try {
        return await deps.playerApps.authenticate(apiKey, params.get('c') ?? null);
      } catch (error) {
        if (error instanceof SubsonicError && error.code === 44) {
          if (!(await deps.limiter.hit(AUTH_RATE_RULES.playerKeyMissIp, ip))) throw lockedOut();
        }
        throw error;
      }
    }

    /** `stream`, `download` and `getCoverArt`: bytes on success, a Subsonic error otherwise. */
    async function media(
      name: string,
      request: FastifyRequest,
      reply: FastifyReply,
      caller: PlayerCaller,
      params: SubsonicParams,
    ) {
      const id = params.get('id');
      if (id === undefined) throw new SubsonicError(10, 'Required parameter is missing: id.');
      if (name === 'getCoverArt') {
        const cover = await deps.service.cover(caller, id);
        const size = Number(params.get('size'));
        if (!params.get('size') || !Number.isInteger(size) || size <= 0)
          return sendObject(reply, deps.storage, cover.key, request.headers.range, {
            contentType: cover.contentType,
            cacheControl: 'private, max-age=86400',
          });
        const fitted = Math.min(COVER_SIZE_MAX, Math.max(COVER_SIZE_MIN, size));
        const image = await deps.covers.scaled(cover.key, fitted);
        return reply
          .type('image/jpeg')
          .header('cache-control', 'private, max-age=86400')
          .send(image);
      }
      const maxBitRate = Number(params.get('maxBitRate') ?? 0);
      const want =
        name === 'download' || params.get('format') === 'raw'
          ? 'original'
          : maxBitRate > 0 && maxBitRate <= 128
            ? 'standard'
            : 'high';
      const audio = await deps.service.audio(caller, id, want);
      return sendObject(reply, deps.storage, audio.key, request.headers.range, {
        contentType: audio.contentType,
        etag: audio.etag,
        ...(name === 'download' && audio.fileName ? { downloadName: audio.fileName } : {}),
      });
    }

    async function handle(
      request: FastifyRequest<{ Params: { call: string } }>,
      reply: FastifyReply,
    ) {
      const params = paramsOf(request);
      const name = request.params.call.replace(/\.view$/, '');
      try {
        if (name === 'getOpenSubsonicExtensions')
          return answer(
            reply,
            params,
            envelope('ok', { openSubsonicExtensions: EXTENSIONS }, SERVER_VERSION),
          );
        const caller = await authenticate(request, params);
        if (name === 'stream' || name === 'download' || name === 'getCoverArt')
          return await media(name, request, reply, caller, params);
        const call = Object.hasOwn(SUBSONIC_CALLS, name) ? SUBSONIC_CALLS[name] : undefined;
        if (!call)
          throw new SubsonicError(
            0,
            `Takes does not serve '${name.slice(0, 60)}': it is a read-only library of your mixes.`,
          );
        return answer(
          reply,
          params,
          envelope('ok', await call(deps.service, caller, params), SERVER_VERSION),
        );
      } catch (error) {
        if (error instanceof SubsonicError) return failed(reply, params, error);
        request.log.error({ err: error, call: name }, 'subsonic call failed');
        return failed(reply, params, new SubsonicError(0, 'Something went wrong on the server.'));
      }
    }

    app.route({ method: ['GET', 'POST'], url: '/rest/:call', handler: handle });
    return Promise.resolve();
  };
