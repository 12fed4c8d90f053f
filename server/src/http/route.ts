import type {
  FastifyInstance,
  FastifyReply,
  onRequestAsyncHookHandler,
  FastifyRequest,
  FastifySchema,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import { z } from 'zod';
import {
  type AuthScheme,
  type DemoRule,
  errorBodySchema,
  isZodSchema,
  successStatuses,
  type BodyOutput,
  type Endpoint,
  type ParamsOutput,
  type QueryOutput,
  type ResultInput,
} from '@takes/contract';
import { Forbidden } from '../errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The descriptor a route was registered from (the OpenAPI document is built from these). */
    endpoint?: Endpoint;
  }
  interface FastifyInstance {
    /**
     * Tells 'Try demo' accounts apart (app.ts decorates the app with the demo module's answer);
     * `route()` asks it for every descriptor whose `demo` refuses them.
     */
    demoAccounts: DemoAccounts;
    /**
     * The sign-in check (app.ts decorates the app with the auth guard): `route()` runs it first,
     * before the body is read, on every descriptor whose `auth` admits signed-in callers only.
     */
    signInCheck: onRequestAsyncHookHandler;
  }
}

/**
 * Who may call an operation, from its descriptor's `auth`:
 * - 'signed-in': a session or a desktop token, checked by `route()` before anything else (401);
 * - 'anyone': a public operation;
 * - 'credential': a share key or an upload token, alone or beside a sign-in: the operation's own
 *   service checks what it was given (a link's key decides what it opens, so no hook can).
 */
export type Callers = 'signed-in' | 'anyone' | 'credential';

const SIGN_IN_SCHEMES: readonly AuthScheme[] = ['session', 'desktopToken'];

export function callersOf(endpoint: Endpoint): Callers {
  const auth: readonly AuthScheme[] | undefined = (endpoint as Partial<Endpoint>).auth;
  if (auth === undefined)
    throw new Error(`${endpoint.name} does not declare who may call it (auth)`);
  if (auth.length === 0) return 'anyone';
  return auth.every((scheme) => SIGN_IN_SCHEMES.includes(scheme)) ? 'signed-in' : 'credential';
}

/** The sign-in check of a 'signed-in' descriptor; an app without one cannot register it. */
function signInRequired(
  app: FastifyInstance,
  endpoint: Endpoint,
): onRequestAsyncHookHandler | undefined {
  if (callersOf(endpoint) !== 'signed-in') return undefined;
  if (!app.hasDecorator('signInCheck'))
    throw new Error(
      `${endpoint.name} admits signed-in callers only, but the app has no sign-in check`,
    );
  return app.signInCheck;
}

export interface DemoAccounts {
  isDemoAccount(userId: string): Promise<boolean>;
}

/**
 * The check a descriptor's `demo: { refused }` adds after the route's own pre-handlers (so it
 * sees the user their sign-in check found): a signed-in demo account gets 403 with the reason.
 * An app without `demoAccounts` cannot register such a route: a refusal is never dropped.
 */
function demoRefusal(
  app: FastifyInstance,
  endpoint: Endpoint,
  rule: DemoRule,
): preHandlerAsyncHookHandler | undefined {
  if (rule === 'allowed') return undefined;
  if (!app.hasDecorator('demoAccounts'))
    throw new Error(`${endpoint.name} refuses demo accounts, but the app cannot tell them apart`);
  const accounts = app.demoAccounts;
  return async (request) => {
    if (request.user && (await accounts.isDemoAccount(request.user.id)))
      throw new Forbidden(rule.refused, { code: 'demo_not_allowed' });
  };
}

export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: ParamsOutput<E>;
  Querystring: QueryOutput<E>;
  Body: BodyOutput<E>;
}>;

/**
 * A handler returns the success body (sent with the descriptor's status), nothing for a 204, or
 * the reply itself when it answered on its own (a stream, a redirect, another status).
 */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<ResultInput<E> | FastifyReply | void> | ResultInput<E> | FastifyReply | void;

export interface EndpointOptions {
  preHandler?: preHandlerAsyncHookHandler | preHandlerAsyncHookHandler[];
  bodyLimit?: number;
  config?: RouteOptions['config'];
}

/** The Fastify schema for a descriptor: validation of params, query and JSON body, and the responses. */
function fastifySchema(endpoint: Endpoint): FastifySchema {
  const response: Record<number, z.ZodType> = {};
  for (const [status, spec] of Object.entries(endpoint.responses)) {
    if (isZodSchema(spec)) response[Number(status)] = spec;
    else if (spec?.kind === 'empty') response[Number(status)] = z.null();
  }
  for (const status of endpoint.errors) response[status] = errorBodySchema;
  return {
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(isZodSchema(endpoint.body) ? { body: endpoint.body } : {}),
    response,
  };
}

/**
 * Registers one route from its descriptor, enforcing what it declares: who may call (`auth`, see
 * `Callers`) and whether a demo account may (`demo`). The path is the descriptor's full path, so
 * register plugins that use this without a prefix.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: EndpointOptions,
  handler: EndpointHandler<E>,
): void {
  const [status = 200] = successStatuses(endpoint);
  const own = options.preHandler === undefined ? [] : [options.preHandler].flat();
  const signIn = signInRequired(app, endpoint);
  const refuseDemo = demoRefusal(app, endpoint, endpoint.demo);
  const preHandler = refuseDemo ? [...own, refuseDemo] : own;
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: fastifySchema(endpoint),
    ...(signIn ? { onRequest: signIn } : {}),
    ...(preHandler.length > 0 ? { preHandler } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    config: { ...options.config, endpoint },
    handler: async (request, reply) => {
      const result = await handler(request as EndpointRequest<E>, reply);
      // A handler that sent its own answer returns the reply, a thenable: awaiting it waits for
      // the response's end and settles with nothing, also when the client left half-way.
      if (result === reply || reply.sent || reply.raw.headersSent) return reply;
      if (status === 204) return reply.status(204).send(null);
      return reply.status(status).send(result);
    },
  });
}
