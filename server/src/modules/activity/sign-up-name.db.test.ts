import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '@takes/contract';
import { api, client, ORIGIN } from '../../../test/api';
import { buildMember } from '../../../test/factories';
import { cookiesFrom, type TestApp } from '../../../test/test-app';
import { useActivityApp } from './testing';

/**
 * Signing up with an email and a password (the default path) leaves the account's name blank:
 * the team reads such a person by the part of their address before the @, never as
 * 'Unknown User'; a link listener never reads any part of the address.
 */
describe('an email-and-password account is named by its address before the @', () => {
  const app = useActivityApp('First Take.wav');
  let t: TestApp;
  let wav: string;
  beforeAll(() => {
    ({ t, wav } = app);
  });

  async function signUp(local: string): Promise<string> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email: `${local}@studio.example`, password: 'violet-mixdown-47' },
      headers: { origin: ORIGIN },
    });
    expect(response.statusCode, response.body).toBe(200);
    return cookiesFrom(response.headers['set-cookie']);
  }

  it("in their own project's Activity, their comments for the team, and never to a link's listener", async () => {
    const local = `lena.k${randomUUID().slice(0, 8)}`;
    const cookie = await signUp(local);
    const as = client(t, cookie);
    const project = await as.call(endpoints.projects.createProject, { body: { name: 'Demos' } });
    const branchId = project.branches[0]?.id ?? '';
    const uploaded = await api(t, cookie).upload(
      { path: wav },
      { project_id: project.id, branch_id: branchId, commit_message: 'First take' },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { version_id: versionId } = uploaded.json<{ version_id: string }>();

    const feed = await as.call(endpoints.activity.listProjectActivity, {
      params: { projectId: project.id },
      query: { limit: 20 },
    });
    expect(feed.items.map((i) => [i.summary, i.actor.name])).toEqual([
      [`${local} uploaded Version 1 to main`, local],
    ]);
    // The copy kept should the account go says the same.
    const stored = await t.deps.database.db
      .selectFrom('activity')
      .select('actor_name')
      .where('project_id', '=', project.id)
      .execute();
    expect(stored).toEqual([{ actor_name: local }]);

    // Their comment: the team reads the same name; a share link's listener reads no address.
    await as.call(endpoints.comments.addVersionComment, {
      params: { versionId },
      body: { content: 'Kick too loud' },
    });
    const member = await buildMember(t.deps.database.db, { projectId: project.id }, 'viewer');
    const seen = await client(t, member.cookie).call(endpoints.comments.listVersionComments, {
      params: { versionId },
      query: {},
    });
    expect(seen.map((c) => c.author)).toEqual([local]);
    const link = await as.call(endpoints.sharing.createShareLink, {
      params: { versionId },
      body: { name: 'For Lee' },
    });
    const listener = await client(t).call(endpoints.comments.listShareLinkComments, {
      params: { hash: link.hash },
    });
    expect(listener.map((c) => c.author)).toEqual(['Unknown User']);
    expect(JSON.stringify(listener)).not.toContain('lena.k');

    // Once they choose a display name, every line uses it.
    await as.call(endpoints.profiles.updateProfile, { body: { display_name: 'Lena K' } });
    const renamed = await as.call(endpoints.activity.listProjectActivity, {
      params: { projectId: project.id },
      query: { limit: 20 },
    });
    expect(renamed.items.map((i) => i.summary)).toContain('Lena K uploaded Version 1 to main');
  });
});
