import { describe, expect, it } from 'vitest';
import { endpoints, isZodSchema, routes, type Endpoint, type RouteOf } from '@takes/contract';

const kindOf = (endpoint: Endpoint): RouteOf['body'] =>
  endpoint.body === undefined ? 'none' : isZodSchema(endpoint.body) ? 'json' : endpoint.body.kind;

describe('the schema-free routes the web app calls through (packages/contract/src/routes.ts)', () => {
  it('match the endpoint descriptors one for one (else: npm run build -w packages/contract)', () => {
    const fromDescriptors = Object.entries(endpoints).flatMap(([group, members]) =>
      Object.entries(members as Record<string, Endpoint>).map(([key, e]) => ({
        at: `${group}.${key}`,
        name: e.name,
        method: e.method,
        path: e.path,
        body: kindOf(e),
      })),
    );
    const fromRoutes = Object.entries(routes).flatMap(([group, members]) =>
      Object.entries(members as Record<string, RouteOf>).map(([key, r]) => ({
        at: `${group}.${key}`,
        name: r.name,
        method: r.method,
        path: r.path,
        body: r.body,
      })),
    );
    const byPlace = (a: { at: string }, b: { at: string }) => a.at.localeCompare(b.at);
    expect(fromRoutes.sort(byPlace)).toEqual(fromDescriptors.sort(byPlace));
  });
});
