import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createApiClient,
  endpoints,
  publishBounceFile,
  uploadWith,
  type ApiClient,
} from '@takes/contract';
import { ORIGIN } from '../../test/api';
import { makeAudio } from '../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';

const serverDir = path.resolve(import.meta.dirname, '../..');
const prismBin = path.resolve(serverDir, '../node_modules/.bin/prism');
const {
  auth,
  projects,
  versions,
  comments,
  sharing,
  repos,
  bounces,
  workspace,
  profiles,
  site,
  health,
  desktop,
} = endpoints;

/** Prism answers a request or response that breaks the document with a problem of its own. */
function isPrismProblem(response: Response, body: string): boolean {
  return (
    (response.headers.get('content-type') ?? '').includes('application/problem+json') &&
    body.includes('stoplight.io/prism/errors')
  );
}

/**
 * A journey through most of the API, sent through Stoplight Prism as a validating proxy in front
 * of the running server (`prism proxy --errors`): every request and every response, refusals
 * included, must match the OpenAPI document the server publishes.
 */
describe('the API journey through Prism, validating against the served OpenAPI document', () => {
  let t: TestApp;
  let prism: ChildProcess;
  let prismLog = '';
  let base = '';
  let upstream = '';
  let cookie = '';
  const calls: { name: string; status: number; problem?: string }[] = [];

  /** A fetch that records each answer and flags Prism's own problem answers. */
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const body = await response.clone().text();
    calls.push({
      name: `${init?.method ?? 'GET'} ${new URL(input instanceof Request ? input.url : input).pathname}`,
      status: response.status,
      ...(isPrismProblem(response, body) ? { problem: body } : {}),
    });
    return response;
  };

  function clientFor(withCookie: boolean, baseUrl = base): ApiClient {
    return createApiClient({
      baseUrl,
      fetch: recordingFetch,
      headers: () => ({ origin: ORIGIN, ...(withCookie && cookie ? { cookie } : {}) }),
    });
  }

  beforeAll(async () => {
    t = await createTestApp();
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const documentPath = path.join(t.dir, 'openapi.json');
    fs.writeFileSync(documentPath, document.body);
    await t.deps.jobs.startWorking();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    upstream = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const port = 20000 + Math.floor(Math.random() * 20000);
    prism = spawn(
      prismBin,
      ['proxy', documentPath, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prism.stdout?.on('data', (chunk: Buffer) => (prismLog += chunk.toString()));
    prism.stderr?.on('data', (chunk: Buffer) => (prismLog += chunk.toString()));
    const deadline = Date.now() + 60_000;
    while (!prismLog.includes('Prism is listening')) {
      if (prism.exitCode !== null || Date.now() > deadline) {
        throw new Error(`Prism did not start:\n${prismLog}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    base = `http://127.0.0.1:${port}`;
  }, 90_000);

  afterAll(async () => {
    prism?.kill();
    await t?.close();
  });

  it('walks the API with no request or response violation', async () => {
    const api = clientFor(true);
    const visitor = clientFor(false);
    // Prism reads a request body as text before it forwards it, which mangles binary audio
    // (stoplightio/prism#2349, #1321): the two audio uploads go to the server directly, and the
    // same requests with a text body go through Prism, so their shape and their refusal are
    // still checked against the document.
    const direct = clientFor(true, upstream);
    // Public reads.
    expect((await visitor.fetch(health.getHealth)).status).toBe(200);
    await visitor.call(auth.getAuthProviders);
    await visitor.call(desktop.getDesktopConfig);
    await visitor.call(site.listBlogPosts);
    expect((await visitor.fetch(site.getRobotsTxt)).status).toBe(200);
    expect((await visitor.fetch(site.getSitemap)).status).toBe(200);

    // An account, signed in by its cookie.
    const signUp = await visitor.fetch(auth.signUpWithEmail, {
      body: { email: `prism${Date.now()}@example.com`, password: 'violet-mixdown-47' },
    });
    expect(signUp.status).toBe(200);
    cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    await api.call(auth.getSession);
    await api.call(profiles.getProfile);
    await api.call(profiles.updateProfile, { body: { display_name: 'Prism Listener' } });

    // A project, an uploaded version, processed.
    const project = await api.call(projects.createProject, {
      body: { name: 'Prism Session', is_private: true },
    });
    const branchId = project.branches[0]!.id;
    await api.call(projects.listProjects);
    await api.call(projects.listBranches, { params: { projectId: project.id } });
    const wav = await makeAudio(t.dir, 'wav', 2, 'Take One.wav');
    const form = new FormData();
    form.append('project_id', project.id);
    form.append('branch_id', branchId);
    form.append('commit_message', 'First take');
    form.append(
      'audio_file',
      new Blob([fs.readFileSync(wav)], { type: 'audio/wav' }),
      'Take One.wav',
    );
    const textForm = new FormData();
    textForm.append('project_id', project.id);
    textForm.append('branch_id', branchId);
    textForm.append('commit_message', 'Not audio');
    textForm.append(
      'audio_file',
      new Blob(['just some words'], { type: 'text/plain' }),
      'notes.txt',
    );
    const refused = await api
      .call(versions.uploadVersion, { form: textForm })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 415 });
    const upload = await direct.call(versions.uploadVersion, { form });
    const versionParams = { params: { versionId: upload.version_id } };
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await api.call(versions.getVersionProcessing, versionParams);
      if (status.status === 'completed') break;
      expect(status.status).toBe('processing');
      if (Date.now() > deadline) throw new Error('processing did not finish');
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await api.call(versions.getVersion, versionParams);
    await api.call(versions.getVersionQualities, versionParams);
    await api.call(versions.listRecentVersions);
    await api.call(versions.listBranchVersions, {
      params: { projectId: project.id, branchId },
    });
    expect((await api.fetch(versions.getVersionPeaks, versionParams)).status).toBe(200);
    const ranged = await api.fetch(versions.streamVersion, {
      ...versionParams,
      headers: { range: 'bytes=0-1023' },
    });
    expect(ranged.status).toBe(206);
    expect((await api.fetch(versions.downloadVersion, versionParams)).status).toBe(200);

    // Comments and a share link, used by a visitor.
    const comment = await api.call(comments.addVersionComment, {
      ...versionParams,
      body: { content: 'Louder vocals at the chorus', timestamp: 1.5 },
    });
    await api.call(comments.listVersionComments, versionParams);
    await api.call(comments.setCommentResolved, {
      params: { commentId: comment.id },
      body: { resolved: true },
    });
    const link = await api.call(sharing.createShareLink, {
      ...versionParams,
      body: { download_enabled: true },
    });
    await api.call(sharing.listShareLinks, versionParams);
    const hash = { params: { hash: link.hash } };
    await visitor.call(sharing.openShareLink, hash);
    expect(
      (await visitor.fetch(sharing.streamShareLink, { ...hash, headers: { range: 'bytes=0-99' } }))
        .status,
    ).toBe(206);
    await visitor.call(comments.addShareLinkComment, {
      ...hash,
      body: { content: 'Love it', timestamp: 0.5, visitor_name: 'Sam' },
    });
    await visitor.call(comments.listShareLinkComments, hash);
    await api.call(sharing.revokeShareLink, { params: { linkId: link.id } });
    // Refusals are part of the contract too.
    const revoked = await visitor.fetch(sharing.openShareLink, hash);
    expect(revoked.status).toBe(404);
    const missing = await api
      .call(projects.getProject, { params: { projectId: 'nope' } })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).status).toBe(404);

    // A repository, a commit and a published bounce (the binary PUT included).
    const { repo } = await api.call(repos.createRepo, { body: { name: 'Prism Repo' } });
    const repoParams = { params: { id: repo.id } };
    await api.call(repos.createRepoCommit, {
      ...repoParams,
      body: { branch: 'main', message: 'Rough mix' },
    });
    await api.call(repos.getRepo, repoParams);
    await api.call(repos.listRepoBranches, repoParams);
    await api.call(repos.listRepoCommits, repoParams);
    const notAudio = await publishBounceFile(api, {
      target: {
        repo_id: repo.id,
        branch: 'main',
        filename: 'notes.wav',
        content_type: 'audio/wav',
      },
      upload: uploadWith(api, 'just some words', 'audio/wav'),
    }).catch((error: unknown) => error);
    expect(notAudio).toMatchObject({ step: 'upload', cause: { status: 415 } });
    const bounce = await publishBounceFile(api, {
      target: {
        repo_id: repo.id,
        branch: 'main',
        filename: 'Rough Mix.wav',
        content_type: 'audio/wav',
        size: fs.statSync(wav).size,
      },
      upload: uploadWith(direct, new Blob([fs.readFileSync(wav)]), 'audio/wav'),
    });
    await api.call(repos.getBounce, { params: { id: repo.id, bounceId: bounce.id } });
    await api.call(repos.listRepoBounces, repoParams);
    await api.call(bounces.listRecentBounces, { query: { all: 'true' } });
    await api.call(workspace.getStats);
    await api.call(workspace.search, { query: { q: 'Prism' } });

    // Clean-up through the API.
    await api.call(repos.deleteRepo, repoParams);
    await api.call(comments.deleteComment, { params: { commentId: comment.id } });
    await api.call(versions.deleteVersion, versionParams);
    await api.call(projects.deleteProject, { params: { projectId: project.id } });
    await api.fetch(auth.signOut);

    const problems = calls.filter((c) => c.problem);
    expect(problems).toEqual([]);
    expect(prismLog).not.toMatch(/violation/i);
    expect(new Set(calls.map((c) => c.name)).size).toBeGreaterThan(40);
  }, 180_000);
});
