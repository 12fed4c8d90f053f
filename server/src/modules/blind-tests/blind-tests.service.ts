import { randomUUID } from 'node:crypto';
import {
  BLIND_TEST_MESSAGES,
  BLIND_TEST_TRIALS_DEFAULT,
  SHARE_MESSAGES,
  type BlindTest,
  type BlindTestResults,
  type CreateBlindTestBody,
  type ReviewState,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { BlindTestsTable } from '../../db/schema';
import { Conflict, Invalid, NotFound } from '../../errors';
import type { JobContext } from '../../jobs/registry';
import type { JobQueue } from '../../jobs/job-queue';
import type { MediaRunner } from '../../media/runner';
import type { ObjectStore } from '../../storage/object-store';
import type { AccessPolicy } from '../access';
import { loudnessView, parseJson, type Renditions } from '../audio';
import type { ReviewService } from '../review';
import { newShareHash, type LinkPasswords } from '../sharing';
import { renderBlindOptions } from './blind-render';
import { toBlindTest, toResults } from './blind-test.presenter';
import type { BlindTestsRepo, BlindVersionRow } from './blind-tests.repo';
import { renderBlindTestJob } from './jobs';

/** How old an unreferenced blind-test file must be before the sweep removes it. */
const SWEEP_GRACE_MS = 60 * 60 * 1000;

export interface BlindTestsDeps {
  access: AccessPolicy;
  repo: BlindTestsRepo;
  clock: Clock;
  jobs: JobQueue;
  passwords: LinkPasswords;
  review: ReviewService;
  storage: ObjectStore;
  media: MediaRunner;
  /** The web app's address, for the links. */
  publicUrl: string;
}

/**
 * Blind tests, the owner's side: made, listed, revoked and read by whoever may share the project
 * (Editor and up; a Viewer or Commenter gets 403, anyone else 404), with the job that makes each
 * version's loudness-matched, equal-length audio, and 'Mark the winner Approved'.
 */
export class BlindTestsService {
  constructor(private readonly deps: BlindTestsDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  async create(userId: string, projectId: string, body: CreateBlindTestBody): Promise<BlindTest> {
    await this.deps.access.project(userId, projectId, 'share');
    const versions = await this.deps.repo.versions(body.version_ids);
    if (
      versions.length !== body.version_ids.length ||
      versions.some((v) => v.project_id !== projectId)
    )
      throw new NotFound(SHARE_MESSAGES.versionNotFound);
    if (versions.some((v) => v.status !== 'completed'))
      throw new Conflict(BLIND_TEST_MESSAGES.notProcessed);
    const passwordHash = await this.deps.passwords.hash(body.password);
    const now = this.now();
    const test: BlindTestsTable = {
      id: randomUUID(),
      project_id: projectId,
      created_by: userId,
      name: body.name,
      mode: body.mode,
      trials: body.mode === 'preference' ? null : (body.trials ?? BLIND_TEST_TRIALS_DEFAULT),
      reveal_after_voting: body.reveal_after_voting ? 1 : 0,
      status: 'preparing',
      error: null,
      duration: null,
      password_hash: passwordHash,
      expires_at: body.expires_at ?? null,
      revoked_at: null,
      created_at: now,
    };
    const recipients = body.recipients?.length ? body.recipients : [null];
    await this.deps.repo.create(
      test,
      body.version_ids.map((versionId, position) => ({
        test_id: test.id,
        version_id: versionId,
        position,
      })),
      recipients.map((recipient, position) => ({
        id: randomUUID(),
        test_id: test.id,
        hash: newShareHash(),
        position,
        recipient_name: recipient?.name ?? null,
        recipient_email: recipient?.email ?? null,
        created_at: now,
      })),
    );
    await this.deps.jobs.enqueue(renderBlindTestJob, { testId: test.id });
    return this.view(test);
  }

  async list(userId: string, projectId: string): Promise<{ tests: BlindTest[] }> {
    await this.deps.access.project(userId, projectId, 'share');
    const tests = await this.deps.repo.testsOf(projectId);
    return { tests: await this.views(tests) };
  }

  async results(userId: string, testId: string): Promise<BlindTestResults> {
    const test = await this.owned(userId, testId);
    return toResults(await this.view(test), await this.deps.repo.results(test.id));
  }

  async revoke(userId: string, testId: string): Promise<void> {
    const test = await this.owned(userId, testId);
    if (test.revoked_at === null)
      await this.deps.repo.updateTest(test.id, { revoked_at: this.now() });
  }

  /** 'Mark the winner Approved': a version of the test (the caller may review it). */
  async markWinner(userId: string, testId: string, versionId: string): Promise<ReviewState> {
    const test = await this.owned(userId, testId);
    const options = await this.deps.repo.options([test.id]);
    if (!options.some((o) => o.version_id === versionId))
      throw new Invalid(BLIND_TEST_MESSAGES.winnerNotInTest);
    return this.deps.review.approveFromBlindTest(userId, versionId, {
      id: test.id,
      name: test.name,
    });
  }

  /**
   * The job: each version's 320k rendition (else its original) made into the test's audio:
   * matched to the quietest one's integrated loudness and padded to the longest, all the same
   * size. A failure is kept on the test (its listeners are told), never retried without end.
   */
  async render(testId: string, context: JobContext): Promise<void> {
    const test = await this.deps.repo.test(testId);
    if (!test || test.status === 'ready') return;
    const options = await this.deps.repo.options([test.id]);
    const versions = new Map(
      (await this.deps.repo.versions(options.map((o) => o.version_id))).map((v) => [v.id, v]),
    );
    try {
      const sources = options.map((option) => sourceOf(versions.get(option.version_id)));
      const rendered = await renderBlindOptions(
        { storage: this.deps.storage, media: this.deps.media },
        test.id,
        sources,
        context.signal,
      );
      for (const [index, option] of options.entries()) {
        const made = rendered[index];
        if (!made) continue;
        await this.deps.repo.updateOption(test.id, option.version_id, {
          audio_key: made.key,
          size: made.size,
          gain_db: made.gainDb,
        });
      }
      await this.deps.repo.updateTest(test.id, {
        status: 'ready',
        error: null,
        duration: rendered[0]?.duration ?? null,
      });
      context.logger.info({ blindTestId: test.id }, 'blind test ready');
    } catch (error) {
      if (context.signal.aborted) throw error;
      if (context.attempt < 2) throw error;
      await this.deps.repo.updateTest(test.id, {
        status: 'failed',
        error: BLIND_TEST_MESSAGES.failed,
      });
      context.logger.warn({ blindTestId: test.id, err: error }, 'blind test could not be prepared');
    }
  }

  /**
   * Removes the blind-test audio no live test plays: a revoked test's, and what the rows of a
   * deleted version or project (gone with them) pointed at. Files younger than `graceMs` stay:
   * a render stores its files a moment before it records them.
   */
  async sweep(graceMs = SWEEP_GRACE_MS): Promise<number> {
    const live = new Set(await this.deps.repo.liveAudioKeys());
    const before = this.deps.clock.now().getTime() - graceMs;
    let removed = 0;
    for (const object of await this.deps.storage.list('blind/')) {
      if (live.has(object.key) || object.lastModified.getTime() > before) continue;
      await this.deps.storage.delete(object.key);
      removed += 1;
    }
    return removed;
  }

  /** The test, when the caller may share its project (403 below Editor, 404 for strangers). */
  private async owned(userId: string, testId: string): Promise<BlindTestsTable> {
    const test = await this.deps.repo.test(testId);
    if (!test) throw new NotFound(BLIND_TEST_MESSAGES.notFound);
    await this.deps.access.project(userId, test.project_id, 'share', BLIND_TEST_MESSAGES.notFound);
    return test;
  }

  private async view(test: BlindTestsTable): Promise<BlindTest> {
    const [view] = await this.views([test]);
    if (!view) throw new NotFound(BLIND_TEST_MESSAGES.notFound);
    return view;
  }

  private async views(tests: readonly BlindTestsTable[]): Promise<BlindTest[]> {
    const ids = tests.map((t) => t.id);
    const [options, links] = await Promise.all([
      this.deps.repo.options(ids),
      this.deps.repo.links(ids),
    ]);
    const versions = new Map(
      (await this.deps.repo.versions([...new Set(options.map((o) => o.version_id))])).map((v) => [
        v.id,
        v,
      ]),
    );
    const receipts = await this.deps.repo.receipts(
      ids,
      new Map(tests.map((t) => [t.id, t.trials ?? 0])),
    );
    return tests.map((test) =>
      toBlindTest(
        test,
        options.filter((o) => o.test_id === test.id),
        versions,
        links.filter((l) => l.test_id === test.id),
        receipts,
        this.deps.publicUrl,
      ),
    );
  }
}

/** What the render decodes for a version: its 320k rendition, else its original. */
function sourceOf(version: BlindVersionRow | undefined) {
  if (!version) throw new Error('A version of the blind test is gone.');
  const renditions = parseJson<Renditions>(version.renditions, {});
  const key = renditions.high?.key ?? version.original_key;
  if (!key) throw new Error('A version of the blind test has no stored audio.');
  return { key, integratedLufs: loudnessView(version.loudness)?.integrated_lufs ?? null };
}
