import { afterEach, describe, expect, it } from 'vitest';
import { api, eventually, ORIGIN } from '../../../test/api';
import { cookiesFrom, createTestApp, type TestApp } from '../../../test/test-app';

describe('demo account', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('signs a visitor into the demo account with a ready sample project made locally', async () => {
    t = await createTestApp();
    const signIn = () =>
      t.app.inject({ method: 'POST', url: '/api/auth/demo', headers: { origin: ORIGIN } });
    const first = await signIn();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      user: { email: 'demo@takes.localhost', name: 'Demo Musician' },
    });
    const demo = api(t, cookiesFrom(first.headers['set-cookie']));

    const projects = (await demo.get('/api/projects')).json<
      { id: string; name: string; branches: { name: string; version_count: number }[] }[]
    >();
    expect(projects).toHaveLength(1);
    expect(projects[0]).toMatchObject({
      name: 'Sample Project',
      branches: [
        { name: 'main', version_count: 2 },
        { name: 'acoustic', version_count: 0 },
      ],
    });

    // A second visit reuses the account and does not add another sample.
    await signIn();
    expect((await demo.get('/api/projects')).json()).toHaveLength(1);

    const branches = (await demo.get(`/api/projects/${projects[0]?.id}/branches`)).json<
      { versions: { id: string; message: string }[] }[]
    >();
    const versions = branches[0]?.versions ?? [];
    expect(versions.map((v) => v.message)).toEqual([
      'Added the seventh for colour',
      'First sketch: arpeggio idea',
    ]);
    await t.deps.jobs.startWorking();
    for (const version of versions) {
      await eventually(
        async () =>
          (await demo.get(`/api/versions/${version.id}/processing`)).json<{ status: string }>()
            .status === 'completed',
      );
    }
  }, 60_000);
});
