import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { allEndpoints, DEMO_MESSAGES, endpoints, type Endpoint } from '@takes/contract';
import { registerErrorHandling } from './errors';
import { route } from './route';

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

  it('refuses demo accounts every route that shares, mails an address it is given or signs in elsewhere', () => {
    const refused = allEndpoints
      .filter((endpoint) => endpoint.demo !== 'allowed')
      .map((endpoint) => endpoint.name)
      .sort();
    // A change to this list is a decision about throwaway accounts: make it here on purpose.
    expect(refused).toEqual(
      [
        'approveDesktopSignIn',
        'changePassword',
        'createCollectionLinks',
        'createShareLink',
        'getDebugReport',
        'inviteToCollection',
        'inviteToProject',
        'inviteToRepo',
        'resendInvitation',
        'runDebugRoundTrip',
      ].sort(),
    );
  });

  it('answers 403 with the reason to a demo account, after the route’s own sign-in check', async () => {
    const app = testApp();
    app.decorate('demoAccounts', { isDemoAccount: (id: string) => Promise.resolve(id === 'demo') });
    route(
      app,
      endpoints.sharing.createShareLink,
      {
        preHandler: async (request) => {
          const id = request.headers['x-user'];
          request.user = typeof id === 'string' ? ({ id } as typeof request.user) : null;
          return Promise.resolve();
        },
      },
      () => ({ ok: true }) as never,
    );
    const call = (user: string) =>
      app.inject({
        method: 'POST',
        url: '/api/versions/v1/links',
        headers: { 'x-user': user },
        payload: {},
      });
    const demo = await call('demo');
    expect(demo.statusCode).toBe(403);
    expect(demo.json()).toEqual({ error: DEMO_MESSAGES.shareLinks });
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

function testApp(): FastifyInstance {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('user', null);
  registerErrorHandling(app);
  return app;
}
