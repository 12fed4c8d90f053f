import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as FastifyModule from 'fastify';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { allEndpoints, endpoints, isZodSchema, type Endpoint } from '@takes/contract';
import { api, client, eventually, newUser } from '../../test/api';
import { makeAudio } from '../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';

// Every Fastify instance this file builds reports its routes here, from the first one on (an
// onRoute hook added after buildApp would see none of them).
const registered = vi.hoisted(() => [] as { method: string; url: string }[]);
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof FastifyModule>();
  const build = actual.default as unknown as (...args: unknown[]) => FastifyInstance;
  const wrapped = ((...args: unknown[]) => {
    const app = build(...args);
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url });
    });
    return app;
  }) as typeof actual.default;
  return { ...actual, default: wrapped, fastify: wrapped };
});

/**
 * Served by the docs plugins, not by API operations; and the tus protocol's endpoints (resumable
 * uploads, and guests' through upload links), which @tus/server answers by the tus 1.0 specification, not by a JSON descriptor.
 */
const undocumented = (url: string) =>
  url === '/api/openapi.json' ||
  url === '/api/docs' ||
  url.startsWith('/api/docs/') ||
  url === '/api/uploads' ||
  url.startsWith('/api/uploads/') ||
  // Guests' resumable uploads through an upload link: the same protocol.
  url === '/api/guest-uploads' ||
  url.startsWith('/api/guest-uploads/');

/** The success schema a descriptor declares for `status`. */
function schemaOf(endpoint: Endpoint, status: number): z.ZodType {
  const spec = endpoint.responses[status];
  if (!isZodSchema(spec)) throw new Error(`${endpoint.name} has no JSON schema for ${status}`);
  return spec;
}

describe('endpoint descriptors agree with the routes the server registers', () => {
  let t: TestApp;
  beforeAll(async () => {
    registered.length = 0;
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('registers every descriptor’s method and path', () => {
    expect(allEndpoints.length).toBeGreaterThan(90);
    for (const endpoint of allEndpoints) {
      expect(t.app.hasRoute({ method: endpoint.method, url: endpoint.path }), endpoint.name).toBe(
        true,
      );
    }
  });

  it('has a descriptor for every API route (and the crawler files)', () => {
    const described = new Set(allEndpoints.map((e) => `${e.method} ${e.path}`));
    const routes = registered.filter(
      ({ method, url }) =>
        method !== 'HEAD' &&
        (url.startsWith('/api/') || url === '/robots.txt' || url === '/sitemap.xml') &&
        !undocumented(url),
    );
    expect(routes.length).toBeGreaterThan(90);
    const missing = routes
      .map(({ method, url }) => `${method} ${url}`)
      .filter((key) => !described.has(key));
    expect(missing).toEqual([]);
  });

  it('gives every descriptor a unique camelCase name, a summary and a tag', () => {
    const names = allEndpoints.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    for (const endpoint of allEndpoints) {
      expect(endpoint.name, endpoint.path).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(endpoint.summary.length, endpoint.name).toBeGreaterThan(3);
      expect(endpoint.tag, endpoint.name).toMatch(/^[a-z-]+$/);
    }
  });
});

describe('JSON answers parse with their descriptor’s response schema', () => {
  let t: TestApp;
  let dir: string;
  let cookie: string;
  let versionId: string;
  let projectId: string;
  let branchId: string;
  let hash: string;
  let repoId: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-descriptors-'));
    t = await createTestApp();
    cookie = await newUser(t);
    const wav = await makeAudio(dir, 'wav', 2, 'Descriptor Mix.wav');
    const uploaded = await api(t, cookie).upload({ path: wav }, {});
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    ({
      version_id: versionId,
      project_id: projectId,
      branch_id: branchId,
    } = schemaOf(endpoints.versions.uploadVersion, 201).parse(uploaded.json()) as {
      version_id: string;
      project_id: string;
      branch_id: string;
    });
    await t.deps.jobs.startWorking();
    const owner = client(t, cookie);
    await eventually(
      async () =>
        (
          await owner.call(endpoints.versions.getVersionProcessing, {
            params: { versionId },
          })
        ).status === 'completed',
    );
    hash = (
      await owner.call(endpoints.sharing.createShareLink, {
        params: { versionId },
        body: { download_enabled: true },
      })
    ).hash;
    await owner.call(endpoints.comments.addVersionComment, {
      params: { versionId },
      body: { content: 'Louder chorus', timestamp: 1 },
    });
    repoId = (await owner.call(endpoints.repos.createRepo, { body: { name: 'Descriptor Repo' } }))
      .repo.id;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Calls a GET endpoint and checks its answer against the descriptor's schema. */
  async function check(
    endpoint: Endpoint,
    input: { params?: Record<string, string>; query?: Record<string, string> } = {},
    options: { signedIn?: boolean; status?: number } = {},
  ): Promise<unknown> {
    const caller = client(t, options.signedIn === false ? undefined : cookie);
    const response = await (caller.fetch as (e: Endpoint, i: object) => Promise<Response>)(
      endpoint,
      input,
    );
    const status = options.status ?? 200;
    expect(response.status, `${endpoint.name}: ${await response.clone().text()}`).toBe(status);
    const parsed = schemaOf(endpoint, status).safeParse(await response.json());
    expect(parsed.error, endpoint.name).toBeUndefined();
    return parsed.data;
  }

  it('health, auth, desktop and the site', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(
      schemaOf(endpoints.health.getHealth, health.statusCode).safeParse(health.json()).error,
    ).toBeUndefined();
    await check(endpoints.auth.getSession);
    await check(endpoints.auth.getAuthProviders, {}, { signedIn: false });
    await check(endpoints.desktop.getDesktopConfig, {}, { signedIn: false });
    await check(endpoints.desktop.listDesktopDevices);
    await check(endpoints.site.listBlogPosts, {}, { signedIn: false });
  });

  it('profiles, projects and versions', async () => {
    await check(endpoints.profiles.getProfile);
    await check(endpoints.projects.listProjects);
    await check(endpoints.projects.getProject, { params: { projectId } });
    await check(endpoints.projects.listBranches, { params: { projectId } });
    await check(endpoints.versions.listRecentVersions);
    await check(endpoints.versions.listBranchVersions, { params: { projectId, branchId } });
    await check(endpoints.versions.getVersion, { params: { versionId } });
    await check(endpoints.versions.getVersionProcessing, { params: { versionId } });
    await check(endpoints.versions.getVersionQualities, { params: { versionId } });
  });

  it('sharing and comments, signed in and through a link', async () => {
    await check(endpoints.sharing.listShareLinks, { params: { versionId } });
    await check(endpoints.sharing.openShareLink, { params: { hash } }, { signedIn: false });
    const comments = await check(endpoints.comments.listVersionComments, {
      params: { versionId },
    });
    expect(comments).toHaveLength(1);
    await check(
      endpoints.comments.listShareLinkComments,
      { params: { hash } },
      { signedIn: false },
    );
  });

  it('collections, with a processed upload pinned and its branch followed', async () => {
    const owner = client(t, cookie);
    const { id } = await owner.call(endpoints.collections.createCollection, {
      body: { name: 'Descriptor Set' },
    });
    await owner.call(endpoints.collections.addCollectionItem, {
      params: { id },
      body: { version_id: versionId },
    });
    await owner.call(endpoints.collections.addCollectionItem, {
      params: { id },
      body: { branch_id: branchId },
    });
    const collection = (await check(endpoints.collections.getCollection, {
      params: { id },
    })) as { items: { version_id?: string }[]; total_duration: number };
    expect(collection.items.map((item) => item.version_id)).toEqual([versionId, versionId]);
    // The processed upload is two seconds long, counted once per item.
    expect(collection.total_duration).toBeCloseTo(4, 0);
    await check(endpoints.collections.listCollections);
  });

  it('repos, audio-git and bounces', async () => {
    await check(endpoints.repos.getRepo, { params: { id: repoId } });
    await check(endpoints.repos.listRepoBranches, { params: { id: repoId } });
    await check(endpoints.repos.listRepoCommits, { params: { id: repoId } });
    await check(endpoints.repos.listRepoBounces, { params: { id: repoId } });
    await check(endpoints.audioGit.listRepositories);
    await check(endpoints.audioGit.getRepository, { params: { id: repoId } });
    await check(endpoints.audioGit.listPatches, { params: { id: repoId } });
    await check(endpoints.bounces.listRecentBounces);
  });

  it('workspace: the dashboard figures and search', async () => {
    await check(endpoints.workspace.getStats);
    const found = await check(endpoints.workspace.search, { query: { q: 'Descriptor' } });
    expect(found).toMatchObject({ projects: [{ id: projectId }] });
  });
});
