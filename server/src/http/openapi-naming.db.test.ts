import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/**
 * Every property name in the document (request and response bodies, components, multipart
 * fields) and every query parameter, each with where it was found.
 */
export function namesIn(document: unknown): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const note = (name: string, where: string) => {
    const list = found.get(name) ?? [];
    if (!list.includes(where)) list.push(where);
    found.set(name, list);
  };
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) {
      node.forEach((item) => walk(item, where));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const object = node as Record<string, unknown>;
    if (object.in === 'query' && typeof object.name === 'string') note(object.name, where);
    for (const [key, value] of Object.entries(object)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) {
        for (const [name, schema] of Object.entries(value)) {
          note(name, where);
          walk(schema, where);
        }
      } else {
        walk(value, where);
      }
    }
  };
  const doc = document as {
    paths: Record<string, Record<string, { operationId?: string }>>;
    components?: { schemas?: Record<string, unknown> };
  };
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations))
      walk(operation, operation.operationId ?? `${method.toUpperCase()} ${path}`);
  }
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
    walk(schema, `#/components/schemas/${name}`);
  return found;
}

describe('the JSON contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('names every property and query parameter in snake_case', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const names = namesIn(response.json());
    expect(names.size).toBeGreaterThan(100);
    const camel = [...names].filter(([name]) => !SNAKE_CASE.test(name));
    const wrong = camel.map(([name, where]) => `${name} (${where.slice(0, 3).join(', ')})`).sort();
    expect(wrong).toEqual([]);
  });

  it('tells a camelCase name from a snake_case one', () => {
    const names = namesIn({
      paths: {
        '/x': {
          get: {
            operationId: 'x',
            parameters: [{ in: 'query', name: 'pageSize' }],
            responses: {
              200: { properties: { version_id: {}, nested: { properties: { fileUrl: {} } } } },
            },
          },
        },
      },
    });
    expect([...names.keys()].filter((name) => !SNAKE_CASE.test(name))).toEqual([
      'pageSize',
      'fileUrl',
    ]);
  });
});
