import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEMBER_MESSAGES,
  REVIEW_MESSAGES,
  SHARE_MESSAGES,
  type Comment,
  type CompareResponse,
  type ReviewState,
  type ShareLink,
  type VersionReview,
} from '@takes/contract';
import { api, ORIGIN } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

function expectError(response: LightMyRequestResponse, status: number, message: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<{ error: string }>().error).toBe(message);
}

describe('the review surface: range comments, review status, compare', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A project whose versions are 90 s long, with one member of each role and a stranger. */
  async function team() {
    const db = t.deps.database.db;
    const owner = await buildUser(db, { name: 'Olivia Owner' });
    const { project, branch } = await buildProject(db, owner.id);
    // Linked audio (no stored original) is enough for the recent feed.
    const long = {
      metadata: JSON.stringify({ duration: 90 }),
      file_url: 'https://example.com/mix.mp3',
    };
    const first = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { overrides: long },
    );
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { overrides: long },
    );
    const target = { projectId: project.id };
    const people = {
      owner,
      editor: await buildMember(db, target, 'editor', { name: 'Eddie Editor' }),
      commenter: await buildMember(db, target, 'commenter', { name: 'Cora Commenter' }),
      viewer: await buildMember(db, target, 'viewer', { name: 'Vic Viewer' }),
      stranger: await buildUser(db),
    };
    const as = (who: keyof typeof people) => api(t, people[who].cookie);
    return { db, project, branch, first, version, people, as };
  }

  /** A request as a link's visitor (no session). */
  function visitor(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    return t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { origin: ORIGIN },
    });
  }

  async function link(
    as: ReturnType<Awaited<ReturnType<typeof team>>['as']>,
    versionId: string,
    options: object = {},
  ): Promise<ShareLink> {
    const response = await as.post(`/api/versions/${versionId}/links`, options);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ShareLink>();
  }

  describe('range comments', () => {
    it('keeps a passage from start to end, for members and for visitors', async () => {
      const { version, as } = await team();
      const made = await as('commenter').post(`/api/versions/${version.id}/comments`, {
        content: 'The chorus drags here',
        timestamp: 62,
        end_timestamp: 78.25,
      });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json<Comment>()).toMatchObject({ timestamp: 62, end_timestamp: 78.25 });

      const shared = await link(as('owner'), version.id);
      const byVisitor = await visitor('POST', `/api/links/hash/${shared.hash}/comments`, {
        content: 'Love this bit',
        timestamp: 10,
        end_timestamp: 20,
        visitor_name: 'Lena from the label',
      });
      expect(byVisitor.statusCode, byVisitor.body).toBe(201);
      expect(byVisitor.json<Comment>()).toMatchObject({
        author: 'Lena from the label',
        timestamp: 10,
        end_timestamp: 20,
      });

      // A point comment is still a point; no time at all still works.
      const point = await as('commenter').post(`/api/versions/${version.id}/comments`, {
        content: 'Snare',
        timestamp: 5,
      });
      expect(point.json<Comment>()).toMatchObject({ timestamp: 5, end_timestamp: null });
      const listed = await as('viewer').get(`/api/versions/${version.id}/comments`);
      expect(
        listed.json<Comment[]>().map((c) => [c.content, c.timestamp, c.end_timestamp]),
      ).toEqual([
        ['The chorus drags here', 62, 78.25],
        ['Love this bit', 10, 20],
        ['Snare', 5, null],
      ]);
      // The visitor sees the range through the link too.
      const throughLink = await visitor('GET', `/api/links/hash/${shared.hash}/comments`);
      expect(
        throughLink.json<Comment[]>().find((c) => c.content === 'Love this bit'),
      ).toMatchObject({ end_timestamp: 20 });
    });

    it('refuses an end before its start, an end without a start and times past the track, saving nothing', async () => {
      const { version, as } = await team();
      const post = (body: object) =>
        as('commenter').post(`/api/versions/${version.id}/comments`, {
          content: 'x',
          ...body,
        });
      expectError(
        await post({ timestamp: 30, end_timestamp: 30 }),
        400,
        REVIEW_MESSAGES.rangeEndBeforeStart,
      );
      expectError(
        await post({ timestamp: 30, end_timestamp: 12 }),
        400,
        REVIEW_MESSAGES.rangeEndBeforeStart,
      );
      expectError(await post({ end_timestamp: 12 }), 400, REVIEW_MESSAGES.rangeNeedsStart);
      expectError(
        await post({ timestamp: 80, end_timestamp: 91 }),
        400,
        REVIEW_MESSAGES.rangeBeyondTrack,
      );
      expectError(await post({ timestamp: 95 }), 400, REVIEW_MESSAGES.timeBeyondTrack);
      // Visitors are held to the same rules.
      const shared = await link(as('owner'), version.id);
      const bad = await visitor('POST', `/api/links/hash/${shared.hash}/comments`, {
        content: 'x',
        timestamp: 50,
        end_timestamp: 40,
        visitor_name: 'V',
      });
      expectError(bad, 400, REVIEW_MESSAGES.rangeEndBeforeStart);
      expect((await as('owner').get(`/api/versions/${version.id}/comments`)).json()).toEqual([]);
      // Up to the very end is fine.
      const whole = await post({ timestamp: 0, end_timestamp: 90 });
      expect(whole.statusCode, whole.body).toBe(201);
    });

    it("lists earlier versions' comments of the same branch with their version numbers on request", async () => {
      const { db, project, first, version, as } = await team();
      await as('commenter').post(`/api/versions/${first.id}/comments`, {
        content: 'On the first mix',
        timestamp: 3,
      });
      await as('commenter').post(`/api/versions/${version.id}/comments`, {
        content: 'On the second mix',
      });
      // Another branch's comments never join in.
      const other = await db
        .insertInto('branches')
        .values({
          id: `b-${version.id}`,
          project_id: project.id,
          name: 'acoustic',
          is_default: 0,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const elsewhere = await buildVersion(depsOf(t), {
        projectId: project.id,
        branchId: other.id,
      });
      await as('commenter').post(`/api/versions/${elsewhere.id}/comments`, {
        content: 'Acoustic take',
      });

      const only = await as('viewer').get(`/api/versions/${version.id}/comments`);
      expect(only.json<Comment[]>().map((c) => c.content)).toEqual(['On the second mix']);
      const withPrevious = await as('viewer').get(
        `/api/versions/${version.id}/comments?include=previous`,
      );
      expect(withPrevious.json<Comment[]>().map((c) => [c.content, c.version_number])).toEqual([
        ['On the first mix', 1],
        ['On the second mix', 2],
      ]);
      // The first version has nothing earlier; strangers still get 404.
      const ofFirst = await as('viewer').get(`/api/versions/${first.id}/comments?include=previous`);
      expect(ofFirst.json<Comment[]>().map((c) => c.content)).toEqual(['On the first mix']);
      expectError(
        await as('stranger').get(`/api/versions/${version.id}/comments?include=previous`),
        404,
        SHARE_MESSAGES.versionNotFound,
      );
    });
  });

  describe('review status', () => {
    it('is In review by default; the owner and Editors set it, lower roles get 403, strangers 404', async () => {
      const { version, people, as } = await team();
      const initial = await as('viewer').get(`/api/versions/${version.id}/review`);
      expect(initial.json<VersionReview>()).toEqual({
        status: 'in_review',
        changed_at: null,
        changed_by: null,
        history: [],
      });
      expect((await as('viewer').get(`/api/versions/${version.id}`)).json()).toMatchObject({
        review_status: 'in_review',
      });

      const needEditor = MEMBER_MESSAGES.needRole('editor');
      for (const who of ['commenter', 'viewer'] as const)
        expectError(
          await as(who).put(`/api/versions/${version.id}/review`, { status: 'approved' }),
          403,
          needEditor,
        );
      expectError(
        await as('stranger').put(`/api/versions/${version.id}/review`, { status: 'approved' }),
        404,
        SHARE_MESSAGES.versionNotFound,
      );
      expectError(
        await as('stranger').get(`/api/versions/${version.id}/review`),
        404,
        SHARE_MESSAGES.versionNotFound,
      );
      expectError(
        await as('owner').put(`/api/versions/${version.id}/review`, { status: 'done' }),
        400,
        REVIEW_MESSAGES.statusRequired,
      );

      const byEditor = await as('editor').put(`/api/versions/${version.id}/review`, {
        status: 'changes_requested',
      });
      expect(byEditor.statusCode, byEditor.body).toBe(200);
      expect(byEditor.json<VersionReview>()).toMatchObject({
        status: 'changes_requested',
        changed_by: 'Eddie Editor',
      });
      const byOwner = await as('owner').put(`/api/versions/${version.id}/review`, {
        status: 'approved',
      });
      const review = byOwner.json<VersionReview>();
      expect(review.status).toBe('approved');
      // History: newest first, who and when.
      expect(review.history.map((h) => [h.status, h.author, h.user_id, h.through_link])).toEqual([
        ['approved', 'Olivia Owner', people.owner.id, false],
        ['changes_requested', 'Eddie Editor', people.editor.id, false],
      ]);
      expect(Date.parse(review.history[0]!.created_at)).not.toBeNaN();
      // Setting the same status again records nothing more.
      const again = await as('owner').put(`/api/versions/${version.id}/review`, {
        status: 'approved',
      });
      expect(again.json<VersionReview>().history).toHaveLength(2);

      // The status shows on the version, the branch's list and the recent feed.
      expect((await as('viewer').get(`/api/versions/${version.id}`)).json()).toMatchObject({
        review_status: 'approved',
      });
      const recent = await as('owner').get('/api/bounces/recent?all=true');
      expect(
        recent
          .json<{ bounces: { id: string; review_status: string | null }[] }>()
          .bounces.find((b) => b.id === version.id),
      ).toMatchObject({ review_status: 'approved' });

      // And as activity the team reads.
      const activity = await as('viewer').get(`/api/projects/${version.project_id}/activity`);
      const summaries = activity
        .json<{ items: { kind: string; summary: string }[] }>()
        .items.filter((i) => i.kind === 'version.review_changed')
        .map((i) => i.summary);
      expect(summaries).toEqual([
        'Olivia Owner marked Version 2 as Approved',
        'Eddie Editor marked Version 2 as Changes requested',
      ]);
    });

    it("lets a link's visitor set it only when the link allows approval, recording their name", async () => {
      const { version, as } = await team();
      const plain = await link(as('owner'), version.id);
      expect(plain.allow_approval).toBe(false);
      const opened = await visitor('GET', `/api/links/hash/${plain.hash}`);
      expect(opened.json()).toMatchObject({
        link: { allow_approval: false },
        version: { review: { status: 'in_review', changed_by: null } },
      });
      expectError(
        await visitor('PUT', `/api/links/hash/${plain.hash}/review`, {
          status: 'approved',
          visitor_name: 'Lena',
        }),
        403,
        REVIEW_MESSAGES.approvalNotAllowed,
      );

      const approving = await link(as('editor'), version.id, {
        name: 'For the label',
        allow_approval: true,
      });
      expect(approving.allow_approval).toBe(true);
      expectError(
        await visitor('PUT', `/api/links/hash/${approving.hash}/review`, { status: 'approved' }),
        400,
        SHARE_MESSAGES.nameRequired,
      );
      const approved = await visitor('PUT', `/api/links/hash/${approving.hash}/review`, {
        status: 'approved',
        visitor_name: 'Lena from the label',
      });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json<ReviewState>()).toMatchObject({
        status: 'approved',
        changed_by: 'Lena from the label',
      });
      const page = await visitor('GET', `/api/links/hash/${approving.hash}`);
      expect(page.json()).toMatchObject({
        link: { allow_approval: true },
        version: { review: { status: 'approved', changed_by: 'Lena from the label' } },
      });
      const history = (
        await as('viewer').get(`/api/versions/${version.id}/review`)
      ).json<VersionReview>().history;
      expect(
        history.map((h) => [h.status, h.author, h.user_id, h.visitor_name, h.through_link]),
      ).toEqual([['approved', 'Lena from the label', null, 'Lena from the label', true]]);

      // The owner turns the option off on the existing link: the next try is refused.
      const off = await as('owner').patch(`/api/links/${approving.id}`, { allow_approval: false });
      expect(off.json<ShareLink>()).toMatchObject({
        allow_approval: false,
        listeners_see_each_other: true,
      });
      expectError(
        await visitor('PUT', `/api/links/hash/${approving.hash}/review`, {
          status: 'changes_requested',
          visitor_name: 'Lena from the label',
        }),
        403,
        REVIEW_MESSAGES.approvalNotAllowed,
      );
      // A revoked link is gone for approvals too.
      await as('owner').patch(`/api/links/${approving.id}`, { allow_approval: true });
      await as('owner').delete(`/api/links/${approving.id}`);
      expectError(
        await visitor('PUT', `/api/links/hash/${approving.hash}/review`, {
          status: 'changes_requested',
          visitor_name: 'Lena from the label',
        }),
        404,
        SHARE_MESSAGES.linkNotFound,
      );
      // An empty PATCH changes nothing and says so.
      const empty = await as('owner').patch(`/api/links/${plain.id}`, {});
      expect(empty.statusCode).toBe(400);
    });

    it('records a signed-in listener under their account only when their role may review', async () => {
      const { version, people, as } = await team();
      const approving = await link(as('owner'), version.id, { allow_approval: true });
      const through = async (who: 'stranger' | 'viewer' | 'commenter' | 'editor') => {
        const response = await t.app.inject({
          method: 'PUT',
          url: `/api/links/hash/${approving.hash}/review`,
          payload: { status: 'changes_requested', visitor_name: 'Somebody Else' },
          headers: { origin: ORIGIN, cookie: people[who].cookie },
        });
        expect(response.statusCode, response.body).toBe(200);
        // Set it back through the team's route, so the next change through the link records too.
        await as('owner').put(`/api/versions/${version.id}/review`, { status: 'in_review' });
        const history = (
          await as('owner').get(`/api/versions/${version.id}/review`)
        ).json<VersionReview>().history;
        return history.find((change) => change.status === 'changes_requested');
      };
      // A link never lets someone act as a member their role does not make them: they are a
      // visitor under their account's name.
      expect(await through('viewer')).toMatchObject({ user_id: null, visitor_name: 'Vic Viewer' });
      expect(await through('commenter')).toMatchObject({
        user_id: null,
        visitor_name: 'Cora Commenter',
      });
      expect(await through('stranger')).toMatchObject({
        user_id: null,
        visitor_name: people.stranger.name,
      });
      expect(await through('editor')).toMatchObject({
        user_id: people.editor.id,
        visitor_name: null,
      });
    });
  });

  describe('compare', () => {
    it('gives any member two versions of the project; others 404; same version 400', async () => {
      const { db, project, first, version, as } = await team();
      const compared = await as('viewer').get(
        `/api/projects/${project.id}/compare?a=${version.id}&b=${first.id}`,
      );
      expect(compared.statusCode, compared.body).toBe(200);
      const body = compared.json<CompareResponse>();
      expect(body.project).toMatchObject({ id: project.id, role: 'viewer' });
      expect([body.a.id, body.a.version_number, body.a.branch_name]).toEqual([
        version.id,
        2,
        'main',
      ]);
      expect([body.b.id, body.b.version_number]).toEqual([first.id, 1]);

      expectError(
        await as('stranger').get(
          `/api/projects/${project.id}/compare?a=${version.id}&b=${first.id}`,
        ),
        404,
        'Project not found',
      );
      expectError(
        await as('owner').get(
          `/api/projects/${project.id}/compare?a=${version.id}&b=${version.id}`,
        ),
        400,
        REVIEW_MESSAGES.compareSameVersion,
      );
      expect(
        (await as('owner').get(`/api/projects/${project.id}/compare?a=${version.id}`)).statusCode,
      ).toBe(400);

      // A version of another project the caller owns is not part of this compare.
      const owner = (
        await db
          .selectFrom('projects')
          .select('owner_id')
          .where('id', '=', project.id)
          .executeTakeFirstOrThrow()
      ).owner_id;
      const other = await buildProject(db, owner);
      const foreign = await buildVersion(depsOf(t), {
        projectId: other.project.id,
        branchId: other.branch.id,
      });
      expectError(
        await as('owner').get(
          `/api/projects/${project.id}/compare?a=${version.id}&b=${foreign.id}`,
        ),
        404,
        SHARE_MESSAGES.versionNotFound,
      );
    });
  });
});
