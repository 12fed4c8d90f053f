import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, ApiError, endpoints } from '@takes/contract';
import { client, newUser } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/test-app';

const { projects } = endpoints;

describe('routes registered from endpoint descriptors, called through the typed client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sends each descriptor’s success status and body, and 204 with no body', async () => {
    const owner = client(t, await newUser(t));
    const created = await owner.call(projects.createProject, {
      body: { name: 'Night Drive', is_private: true },
    });
    expect(created.name).toBe('Night Drive');
    expect(created.branches.map((b) => b.name)).toEqual(['main']);

    const raw = await owner.fetch(projects.createProject, {
      body: { name: 'Second', is_private: false },
    });
    expect(raw.status).toBe(201);

    const listed = await owner.call(projects.listProjects);
    expect(listed.map((p) => p.name).sort()).toEqual(['Night Drive', 'Second']);

    const deleted = await owner.fetch(projects.deleteProject, {
      params: { projectId: created.id },
    });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    await expect(
      owner.call(projects.getProject, { params: { projectId: created.id } }),
    ).rejects.toMatchObject({ status: 404, serverMessage: 'Project not found' });
  });

  it('turns a refusal into an ApiError carrying the server’s message and details', async () => {
    const owner = client(t, await newUser(t));
    const refused = await owner
      .call(projects.createProject, { body: { name: '', is_private: true } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, serverMessage: 'Project name is required' });
    expect((refused as ApiError).details).toBeInstanceOf(Array);

    const anonymous = client(t);
    await expect(anonymous.call(projects.listProjects)).rejects.toMatchObject({ status: 401 });
  });

  it('registers every descriptor of the contract exactly once', () => {
    const routes = t.app.printRoutes({ commonPrefix: false });
    for (const endpoint of allEndpoints) {
      expect(t.app.hasRoute({ method: endpoint.method, url: endpoint.path }), endpoint.name).toBe(
        true,
      );
    }
    expect(routes).toContain('/api/projects');
  });

  it('documents a descriptor’s operation from the descriptor', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const document = response.json<{
      paths: Record<string, Record<string, Record<string, unknown>>>;
      servers: { url: string }[];
      components: { securitySchemes: Record<string, unknown> };
    }>();
    const update = document.paths['/api/projects/{projectId}']?.patch;
    expect(update).toMatchObject({
      operationId: 'updateProject',
      summary: 'Rename a project or change its description',
      tags: ['projects'],
      security: [{ session: [] }, { desktopToken: [] }],
    });
    expect(Object.keys(update?.responses as object)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
    ]);
    expect(document.paths['/api/projects/{projectId}']?.delete?.responses).toHaveProperty('204');
    expect(document.servers).toEqual([{ url: t.deps.config.publicUrl.replace(/\/+$/, '') }]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'desktopToken',
      'session',
      'shareKey',
      'uploadToken',
    ]);
  });
});
