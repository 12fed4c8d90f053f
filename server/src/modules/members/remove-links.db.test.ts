import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, MEMBER_MESSAGES, type ActivityPage, type ApiClient } from '@takes/contract';
import { api as rawApi, client } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildRepo,
  buildVersion,
  buildUser,
  depsOf,
  type BuiltUser,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const members = endpoints.members;
const sharing = endpoints.sharing;

const processed = {
  status: 'completed' as const,
  waveform: JSON.stringify({ overview: [0.1, 0.5, 0.3], duration: 10 }),
};

/**
 * Removing a member: 'Also revoke the links they made' (on unless `revoke_links=false`) revokes
 * the share links they made in the project, in the removal's transaction, and the member list
 * tells the owner how many there are.
 */
describe('removing a member and the share links they made', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t.close());

  const as = (user?: { cookie: string }): ApiClient => client(t, user?.cookie);

  /** Olga's project with one version; Ed (Editor) made two links, Olga one; Cleo and Vic none. */
  async function world() {
    const db = t.deps.database.db;
    const olga = await buildUser(db, { name: 'Olga' });
    const { project, branch } = await buildProject(db, olga.id, { name: 'Night Drive' });
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { overrides: processed },
    );
    const target = { projectId: project.id };
    const ed = await buildMember(db, target, 'editor', { name: 'Ed' });
    const cleo = await buildMember(db, target, 'commenter', { name: 'Cleo' });
    const vic = await buildMember(db, target, 'viewer', { name: 'Vic' });
    const link = (who: BuiltUser, name: string) =>
      as(who).call(sharing.createShareLink, {
        params: { versionId: version.id },
        body: { name },
      });
    const edLinks = [await link(ed, 'For the label'), await link(ed, 'For the mixer')];
    const olgaLink = await link(olga, "Olga's own");
    // A link of Ed's already revoked and one expired: neither counts, neither is revoked again.
    const gone = await link(ed, 'Gone already');
    await as(ed).call(sharing.revokeShareLink, { params: { linkId: gone.id } });
    const expired = await link(ed, 'Expired');
    await db
      .updateTable('links')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', expired.id)
      .execute();
    return { olga, ed, cleo, vic, project, version, edLinks, olgaLink };
  }

  const opens = async (hash: string) =>
    (await rawApi(t, '').get(`/api/links/hash/${hash}`)).statusCode;

  const linksMade = async (owner: BuiltUser, projectId: string) => {
    const list = await as(owner).call(members.listProjectMembers, { params: { projectId } });
    return Object.fromEntries(list.members.map((m) => [m.user_id, m.links_made]));
  };

  const feed = async (owner: BuiltUser, projectId: string) => {
    const page = (
      await rawApi(t, owner.cookie).get(`/api/projects/${projectId}/activity?limit=100`)
    ).json<ActivityPage>();
    return page.items.map((i) => i.summary);
  };

  it('tells the owner how many live links each member made, and nobody else', async () => {
    const w = await world();
    expect(await linksMade(w.olga, w.project.id)).toEqual({
      [w.olga.id]: 1,
      [w.ed.id]: 2,
      [w.cleo.id]: 0,
      [w.vic.id]: 0,
    });
    // An editor sees the members but not the counts (like pending invitations).
    const seenByEd = await as(w.ed).call(members.listProjectMembers, {
      params: { projectId: w.project.id },
    });
    expect(seenByEd.members.map((m) => m.links_made)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('revokes the links an Editor made when they are removed (the default): visitors get 404', async () => {
    const w = await world();
    for (const link of w.edLinks) expect(await opens(link.hash)).toBe(200);

    await as(w.olga).call(members.removeProjectMember, {
      params: { projectId: w.project.id, userId: w.ed.id },
    });

    for (const link of w.edLinks) expect(await opens(link.hash)).toBe(404);
    // The owner's own link is not theirs to lose.
    expect(await opens(w.olgaLink.hash)).toBe(200);
    const lines = await feed(w.olga, w.project.id);
    expect(lines.slice(0, 3).sort()).toEqual(
      [
        'Olga removed Ed',
        "Olga revoked the share link 'For the label'",
        "Olga revoked the share link 'For the mixer'",
      ].sort(),
    );
    // Revoked once: the link Ed had revoked himself is not revoked again, the expired one is left.
    const revoked = lines.filter((l) => l.includes(' revoked '));
    expect(revoked.filter((l) => l.includes("'Gone already'"))).toEqual([
      "Ed revoked the share link 'Gone already'",
    ]);
    expect(revoked.filter((l) => l.includes("'Expired'"))).toEqual([]);
  });

  it('keeps the links alive with revoke_links=false', async () => {
    const w = await world();
    await as(w.olga).call(members.removeProjectMember, {
      params: { projectId: w.project.id, userId: w.ed.id },
      query: { revoke_links: 'false' },
    });
    expect(await t.services.access.projectRole(w.ed.id, w.project.id)).toBeNull();
    for (const link of w.edLinks) expect(await opens(link.hash)).toBe(200);
    expect((await feed(w.olga, w.project.id)).filter((l) => l.includes('revoked'))).toEqual([
      "Ed revoked the share link 'Gone already'",
    ]);
  });

  it('revokes nothing when a Commenter or a Viewer (who made no links) is removed', async () => {
    const w = await world();
    const before = await feed(w.olga, w.project.id);
    for (const who of [w.cleo, w.vic])
      await as(w.olga).call(members.removeProjectMember, {
        params: { projectId: w.project.id, userId: who.id },
        query: { revoke_links: 'true' },
      });
    for (const link of [...w.edLinks, w.olgaLink]) expect(await opens(link.hash)).toBe(200);
    const after = await feed(w.olga, w.project.id);
    expect(after.slice(0, after.length - before.length)).toEqual([
      'Olga removed Vic',
      'Olga removed Cleo',
    ]);
  });

  it('rolls the revocations back with a removal that fails, and refuses a bad option', async () => {
    const w = await world();
    // Not the owner: 403 and nothing revoked.
    const refused = await rawApi(t, w.ed.cookie).delete(
      `/api/projects/${w.project.id}/members/${w.cleo.id}`,
    );
    expect(refused.statusCode).toBe(403);
    // The owner cannot be removed: 409, and her link stays.
    const owner = await rawApi(t, w.olga.cookie).delete(
      `/api/projects/${w.project.id}/members/${w.olga.id}`,
    );
    expect(owner.json()).toEqual({ error: MEMBER_MESSAGES.ownerCannotBeRemoved, code: 'conflict' });
    const bad = await rawApi(t, w.olga.cookie).delete(
      `/api/projects/${w.project.id}/members/${w.ed.id}?revoke_links=yes`,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toBe(MEMBER_MESSAGES.revokeLinksInvalid);
    for (const link of [...w.edLinks, w.olgaLink]) expect(await opens(link.hash)).toBe(200);
    expect(await t.services.access.projectRole(w.ed.id, w.project.id)).toBe('editor');
  });

  it('a repository has no share links: its members count none', async () => {
    const db = t.deps.database.db;
    const olga = await buildUser(db, { name: 'Olga' });
    const repo = await buildRepo(db, olga.id);
    const ed = await buildMember(db, { repoId: repo.id }, 'editor', { name: 'Ed' });
    const list = await as(olga).call(members.listRepoMembers, { params: { id: repo.id } });
    expect(list.members.map((m) => [m.user_id, m.links_made])).toEqual([
      [olga.id, 0],
      [ed.id, 0],
    ]);
    await as(olga).call(members.removeRepoMember, { params: { id: repo.id, userId: ed.id } });
    expect(await t.services.access.repoRole(ed.id, repo.id)).toBeNull();
  });
});
