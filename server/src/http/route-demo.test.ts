import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { allEndpoints, DEMO_MESSAGES, endpoints, type Endpoint } from '@takes/contract';
import { Unauthenticated } from '../errors';
import { registerErrorHandling } from './errors';
import { callersOf, route } from './route';

/**
 * What a 'Try demo' account may call is declared on each descriptor (`demo`) and enforced by
 * route(): no list of paths elsewhere for the next route to be missing from.
 */
describe("a descriptor's demo rule", () => {
  it('is declared by every descriptor: allowed, or refused with a sentence', () => {
    for (const endpoint of allEndpoints) {
      const rule = (endpoint as Partial<Endpoint>).demo;
      expect(
        rule,
        `${endpoint.name} does not say whether a demo account may call it`,
      ).toBeDefined();
      if (rule !== 'allowed') expect(rule?.refused, endpoint.name).toMatch(/^[A-Z].+\.$/);
    }
  });

  it('refuses demo accounts every route that shares, mails an address it is given, signs in elsewhere or makes a player-app key', () => {
    const refused = allEndpoints
      .filter((endpoint) => endpoint.demo !== 'allowed')
      .map((endpoint) => endpoint.name)
      .sort();
    // A change to this list is a decision about throwaway accounts: make it here on purpose.
    expect(refused).toEqual(
      [
        'approveDesktopSignIn',
        'changePassword',
        'createBlindTest',
        'createCollectionLinks',
        'createInviteLink',
        'createPlayerApp',
        'createRepoUploadLink',
        'createShareLink',
        'createUploadLink',
        'getDebugReport',
        'inviteToCollection',
        'inviteToProject',
        'inviteToRepo',
        'requestAccessFromCollectionLink',
        'requestAccessFromLink',
        'resendInvitation',
        'runDebugRoundTrip',
        // The admin page, like the debug report it holds.
        'disableUser',
        'enableUser',
        'getAdminLinkDefaults',
        'getAdminSignups',
        'getAdminStorage',
        'inviteToSignUp',
        'listAdminActions',
        'listAdminUsers',
        'resetAdminSignups',
        'setAdminLinkDefaults',
        'setAdminSignups',
        'setUserQuota',
      ].sort(),
    );
  });

  it('answers 403 with the reason to a demo account, after the route’s own sign-in check', async () => {
    const app = testApp();
    app.decorate('demoAccounts', { isDemoAccount: (id: string) => Promise.resolve(id === 'demo') });
    route(app, endpoints.sharing.createShareLink, {}, () => ({ ok: true }) as never);
    const call = (user: string) =>
      app.inject({
        method: 'POST',
        url: '/api/versions/v1/links',
        headers: { 'x-user': user },
        payload: {},
      });
    const demo = await call('demo');
    expect(demo.statusCode).toBe(403);
    expect(demo.json()).toEqual({ error: DEMO_MESSAGES.shareLinks, code: 'demo_not_allowed' });
    expect((await call('someone')).statusCode).not.toBe(403);
    await app.close();
  });

  it('cannot be dropped: an app that cannot tell demo accounts apart refuses to register the route', () => {
    const app = testApp();
    expect(() => route(app, endpoints.sharing.createShareLink, {}, () => undefined)).toThrow(
      /createShareLink refuses demo accounts/,
    );
    // An allowed route needs nothing.
    expect(() => route(app, endpoints.health.getHealth, {}, () => undefined)).not.toThrow();
    return app.close();
  });
});

/** An app whose sign-in check takes the user's id from `x-user` (401 without one). */
function testApp(): FastifyInstance {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('user', null);
  app.decorate('signInCheck', async (request: FastifyRequest) => {
    const id = request.headers['x-user'];
    if (typeof id !== 'string') throw new Unauthenticated();
    request.user = { id } as NonNullable<typeof request.user>;
    return Promise.resolve();
  });
  registerErrorHandling(app);
  return app;
}

describe("a descriptor's sign-in rule", () => {
  it('is declared by every descriptor, and a descriptor that does not say cannot be registered', () => {
    for (const endpoint of allEndpoints) expect(() => callersOf(endpoint)).not.toThrow();
    const undeclared = { ...endpoints.health.getHealth, auth: undefined } as unknown as Endpoint;
    expect(() => route(testApp(), undeclared, {}, () => undefined)).toThrow(
      /getHealth does not declare who may call it/,
    );
  });

  it('cannot be dropped: an app without a sign-in check refuses to register a signed-in route', () => {
    const app = Fastify();
    expect(() => route(app, endpoints.projects.listProjects, {}, () => undefined)).toThrow(
      /listProjects admits signed-in callers only/,
    );
    return app.close();
  });

  it('answers 401 before the route’s own pre-handlers and its input validation', async () => {
    const app = testApp();
    let reached = false;
    route(
      app,
      endpoints.projects.createProject,
      {
        preHandler: async () => {
          reached = true;
          return Promise.resolve();
        },
      },
      () => undefined as never,
    );
    const response = await app.inject({
      method: 'POST',
      url: '/api/projects',
      payload: { name: 42 },
    });
    expect(response.statusCode, response.body).toBe(401);
    expect(reached).toBe(false);
    await app.close();
  });
});
