import type { Insertable, Kysely, Updateable } from 'kysely';
import type {
  BlindListenersTable,
  BlindTestLinksTable,
  BlindTestOptionsTable,
  BlindTestsTable,
  BlindTrialsTable,
  BlindVotesTable,
  Database,
} from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';

/** A version as a blind test names it to its owner (never to a listener before the vote). */
export interface BlindVersionRow {
  id: string;
  project_id: string;
  version_number: number;
  branch_name: string;
  status: string;
  /** JSON: the renditions (the 320k one is decoded for the test's audio). */
  renditions: string;
  original_key: string | null;
  /** JSON: processing's loudness measurement. */
  loudness: string | null;
}

/** Receipts of one link: listeners who opened it, who voted or finished, and when last. */
export interface LinkReceiptRow {
  link_id: string;
  opened: number;
  voted: number;
  last_activity_at: string | null;
}

/** SQL for blind tests, their options, links, listeners, votes and ABX trials. */
export class BlindTestsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new test with its options and links, in one transaction. */
  async create(
    test: Insertable<BlindTestsTable>,
    options: Insertable<BlindTestOptionsTable>[],
    links: Insertable<BlindTestLinksTable>[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('blind_tests').values(test).execute();
      await trx.insertInto('blind_test_options').values(options).execute();
      await trx.insertInto('blind_test_links').values(links).execute();
    });
  }

  test(id: string): Promise<BlindTestsTable | undefined> {
    return this.db.selectFrom('blind_tests').selectAll().where('id', '=', id).executeTakeFirst();
  }

  testsOf(projectId: string): Promise<BlindTestsTable[]> {
    return this.db
      .selectFrom('blind_tests')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async updateTest(id: string, values: Updateable<BlindTestsTable>): Promise<void> {
    await this.db.updateTable('blind_tests').set(values).where('id', '=', id).execute();
  }

  async updateOption(
    testId: string,
    versionId: string,
    values: Updateable<BlindTestOptionsTable>,
  ): Promise<void> {
    await this.db
      .updateTable('blind_test_options')
      .set(values)
      .where('test_id', '=', testId)
      .where('version_id', '=', versionId)
      .execute();
  }

  options(testIds: readonly string[]): Promise<BlindTestOptionsTable[]> {
    if (testIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('blind_test_options')
      .selectAll()
      .where('test_id', 'in', testIds)
      .orderBy('position')
      .execute();
  }

  /** The audio of every option of a test that is not revoked. */
  async liveAudioKeys(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('blind_test_options')
      .innerJoin('blind_tests', 'blind_tests.id', 'blind_test_options.test_id')
      .select('blind_test_options.audio_key')
      .where('blind_tests.revoked_at', 'is', null)
      .where('blind_test_options.audio_key', 'is not', null)
      .execute();
    return rows.flatMap((r) => (r.audio_key ? [r.audio_key] : []));
  }

  links(testIds: readonly string[]): Promise<BlindTestLinksTable[]> {
    if (testIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('blind_test_links')
      .selectAll()
      .where('test_id', 'in', testIds)
      .orderBy('position')
      .execute();
  }

  async linkByHash(
    hash: string,
  ): Promise<{ link: BlindTestLinksTable; test: BlindTestsTable } | undefined> {
    const link = await this.db
      .selectFrom('blind_test_links')
      .selectAll()
      .where('hash', '=', hash)
      .executeTakeFirst();
    if (!link) return undefined;
    const test = await this.test(link.test_id);
    return test ? { link, test } : undefined;
  }

  /** The versions with what naming and rendering them needs. */
  versions(ids: readonly string[]): Promise<BlindVersionRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('versions')
      .innerJoin('branches', 'branches.id', 'versions.branch_id')
      .select([
        'versions.id',
        'versions.project_id',
        'versions.version_number',
        'branches.name as branch_name',
        'versions.status',
        'versions.renditions',
        'versions.original_key',
        'versions.loudness',
      ])
      .where('versions.id', 'in', ids)
      .execute();
  }

  listenerByToken(testId: string, tokenHash: string): Promise<BlindListenersTable | undefined> {
    return this.db
      .selectFrom('blind_listeners')
      .selectAll()
      .where('test_id', '=', testId)
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  async addListener(listener: Insertable<BlindListenersTable>): Promise<void> {
    await this.db.insertInto('blind_listeners').values(listener).execute();
  }

  async touchListener(id: string, values: Updateable<BlindListenersTable>): Promise<void> {
    await this.db.updateTable('blind_listeners').set(values).where('id', '=', id).execute();
  }

  vote(listenerId: string): Promise<BlindVotesTable | undefined> {
    return this.db
      .selectFrom('blind_votes')
      .selectAll()
      .where('listener_id', '=', listenerId)
      .executeTakeFirst();
  }

  /** One vote per listener: a second replaces the first. */
  async putVote(vote: Insertable<BlindVotesTable> & { updated_at: string }): Promise<void> {
    await this.db
      .insertInto('blind_votes')
      .values(vote)
      .onConflict((oc) =>
        oc.column('listener_id').doUpdateSet({
          version_id: vote.version_id,
          note: vote.note ?? null,
          updated_at: vote.updated_at,
        }),
      )
      .execute();
  }

  trials(listenerId: string): Promise<BlindTrialsTable[]> {
    return this.db
      .selectFrom('blind_trials')
      .selectAll()
      .where('listener_id', '=', listenerId)
      .orderBy('number')
      .execute();
  }

  /** Starts a trial; false when another request started this number first. */
  async addTrial(trial: Insertable<BlindTrialsTable>): Promise<boolean> {
    try {
      await this.db.insertInto('blind_trials').values(trial).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Answers a trial once: false when it was answered already (or does not exist). */
  async answerTrial(
    listenerId: string,
    number: number,
    correct: boolean,
    at: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('blind_trials')
      .set({ correct: correct ? 1 : 0, answered_at: at })
      .where('listener_id', '=', listenerId)
      .where('number', '=', number)
      .where('answered_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Every listener of a test with a name, their vote and their answered trials. */
  async results(testId: string) {
    const listeners = await this.db
      .selectFrom('blind_listeners')
      .selectAll()
      .where('test_id', '=', testId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const ids = listeners.map((l) => l.id);
    const [votes, trials] = ids.length
      ? await Promise.all([
          this.db.selectFrom('blind_votes').selectAll().where('listener_id', 'in', ids).execute(),
          this.db
            .selectFrom('blind_trials')
            .selectAll()
            .where('listener_id', 'in', ids)
            .where('answered_at', 'is not', null)
            .execute(),
        ])
      : [[], []];
    return { listeners, votes, trials };
  }

  /** Receipts per link of these tests. */
  async receipts(testIds: readonly string[], trialsPerListener: Map<string, number>) {
    if (testIds.length === 0) return [];
    const listeners = await this.db
      .selectFrom('blind_listeners')
      .leftJoin('blind_votes', 'blind_votes.listener_id', 'blind_listeners.id')
      .select([
        'blind_listeners.id',
        'blind_listeners.test_id',
        'blind_listeners.link_id',
        'blind_listeners.last_activity_at',
        'blind_votes.listener_id as voted',
      ])
      .where('blind_listeners.test_id', 'in', testIds)
      .execute();
    const answered = await this.answeredCounts(listeners.map((l) => l.id));
    const byLink = new Map<string, LinkReceiptRow>();
    for (const listener of listeners) {
      const row = byLink.get(listener.link_id) ?? {
        link_id: listener.link_id,
        opened: 0,
        voted: 0,
        last_activity_at: null,
      };
      row.opened += 1;
      const trials = trialsPerListener.get(listener.test_id) ?? 0;
      const finished = trials > 0 && (answered.get(listener.id) ?? 0) >= trials;
      if (listener.voted !== null || finished) row.voted += 1;
      if (!row.last_activity_at || listener.last_activity_at > row.last_activity_at)
        row.last_activity_at = listener.last_activity_at;
      byLink.set(listener.link_id, row);
    }
    return [...byLink.values()];
  }

  private async answeredCounts(listenerIds: readonly string[]): Promise<Map<string, number>> {
    if (listenerIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('blind_trials')
      .select(['listener_id', (eb) => eb.fn.countAll<number>().as('answered')])
      .where('listener_id', 'in', listenerIds)
      .where('answered_at', 'is not', null)
      .groupBy('listener_id')
      .execute();
    return new Map(rows.map((r) => [r.listener_id, Number(r.answered)]));
  }
}
