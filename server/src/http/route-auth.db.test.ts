import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, AUTH_MESSAGES, endpoints } from '@takes/contract';
import { newUser } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/test-app';
import { callersOf } from './route';

/** A path with every parameter filled (the sign-in check runs before parameters are validated). */
const pathOf = (path: string) =>
  path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');

/**
 * Who may call an operation is declared on its descriptor (`auth`) and enforced by route(), not by
 * each module remembering to add the guard: an anonymous request to any operation that admits
 * signed-in callers only is refused with 401 before its input is even read.
 */
describe('the sign-in rule a descriptor declares', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signedInOnly = allEndpoints.filter((endpoint) => callersOf(endpoint) === 'signed-in');

  it('covers most of the API', () => {
    expect(signedInOnly.length).toBeGreaterThan(50);
  });

  it('refuses an anonymous request to every signed-in operation with 401, before its body is validated', async () => {
    const answers = await Promise.all(
      signedInOnly.map(async (endpoint) => {
        const response = await t.app.inject({
          method: endpoint.method,
          url: pathOf(endpoint.path),
          ...(endpoint.method === 'GET' || endpoint.method === 'DELETE'
            ? {}
            : { headers: { 'content-type': 'application/json' }, payload: '{"not":"valid"}' }),
        });
        return `${endpoint.name} ${response.statusCode} ${response.statusCode === 401 ? response.json<{ error: string }>().error : response.body.slice(0, 80)}`;
      }),
    );
    expect(answers).toEqual(
      signedInOnly.map((e) => `${e.name} 401 ${AUTH_MESSAGES.notAuthenticated}`),
    );
  });

  it('refuses an expired or made-up session the same way, and lets a signed-in caller through', async () => {
    const forged = await t.app.inject({
      method: 'GET',
      url: endpoints.projects.listProjects.path,
      headers: { cookie: 'better-auth.session_token=made-up' },
    });
    expect(forged.statusCode).toBe(401);
    const cookie = await newUser(t);
    const real = await t.app.inject({
      method: 'GET',
      url: endpoints.projects.listProjects.path,
      headers: { cookie },
    });
    expect(real.statusCode).toBe(200);
  });

  it('leaves public and link operations to their own checks', () => {
    expect(callersOf(endpoints.health.getHealth)).toBe('anyone');
    expect(callersOf(endpoints.sharing.openShareLink)).toBe('credential');
    expect(callersOf(endpoints.activity.streamEvents)).toBe('credential');
    expect(callersOf(endpoints.projects.listProjects)).toBe('signed-in');
  });
});
