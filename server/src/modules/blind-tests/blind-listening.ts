import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import {
  ABX_LETTERS,
  abxVerdict,
  BLIND_TEST_MESSAGES,
  PREFERENCE_LETTERS,
  SHARE_MESSAGES,
  type BlindListenerPage,
  type BlindOption,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type {
  BlindListenersTable,
  BlindTestLinksTable,
  BlindTestsTable,
  BlindTrialsTable,
} from '../../db/schema';
import { Conflict, Gone, Invalid, NotFound, RateLimited } from '../../errors';
import { parseJson } from '../audio';
import { readCookie, type LinkPasswords } from '../sharing';
import { versionLabel } from './blind-test.presenter';
import type { BlindTestsRepo } from './blind-tests.repo';

const TOO_MANY = 'Too many attempts. Please wait a moment and try again.';
/** How long a listener's cookie lasts: the letters they were dealt stay theirs. */
const LISTENER_COOKIE_SECONDS = 180 * 24 * 60 * 60;

/** What a link opens: its test (live, unexpired, unlocked). */
export interface OpenedBlindTest {
  link: BlindTestLinksTable;
  test: BlindTestsTable;
}

/** One option a listener was dealt: an opaque id for one version of the test. */
interface Dealt {
  version_id: string;
  option_id: string;
}

/** What a listener was dealt, kept with them: the letters' order and the opaque ids. */
export interface BlindAssignment {
  /** X, Y, Z, W in this order. */
  preference: Dealt[];
  /** A and B. */
  abx: { a: Dealt; b: Dealt } | null;
}

/** The listener a request is, and the cookie to set when it is a new one. */
export interface ListenerOf {
  listener: BlindListenersTable;
  setCookie: string | null;
}

const optionId = () => randomBytes(12).toString('base64url');
const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * A blind test as its listeners meet it: each browser is a listener (an HttpOnly cookie whose
 * hash is kept) dealt its own random letters and opaque option ids, so nothing it is sent
 * names a version until it has voted (and then only when the owner chose 'Reveal after voting').
 * ABX's X is drawn and checked here; the page never knows which it is.
 */
export class BlindListening {
  constructor(
    private readonly deps: {
      repo: BlindTestsRepo;
      clock: Clock;
      limiter: RateLimiter;
      passwords: LinkPasswords;
      secureCookies: boolean;
    },
  ) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** Whether a key is a live blind test's (a version link's lookup asks on a miss). */
  async isLiveKey(hash: string): Promise<boolean> {
    const found = /^[A-Za-z0-9]+$/.test(hash) ? await this.deps.repo.linkByHash(hash) : undefined;
    return found !== undefined && found.test.revoked_at === null;
  }

  /** The link's test: 404 unknown or revoked, 410 expired, 401 while locked. */
  async open(hash: string, ip: string, cookies: string | undefined): Promise<OpenedBlindTest> {
    const opened = await this.find(hash, ip);
    this.deps.passwords.requireOpen(
      'blind',
      { id: opened.test.id, password_hash: opened.test.password_hash },
      cookies,
      BLIND_TEST_MESSAGES.needsPassword,
    );
    return opened;
  }

  async unlock(hash: string, ip: string, password: string): Promise<string> {
    const { test } = await this.find(hash, ip);
    return this.deps.passwords.unlock(
      'blind',
      { id: test.id, password_hash: test.password_hash },
      ip,
      password,
      BLIND_TEST_MESSAGES.wrongPassword,
    );
  }

  /**
   * The listener this request is: its cookie's, or (with `create`) a new one dealt its letters,
   * counted per link and address before it is made.
   */
  async listener(
    opened: OpenedBlindTest,
    cookies: string | undefined,
    ip: string,
    create: boolean,
  ): Promise<ListenerOf> {
    const token = readCookie(cookies, this.cookieName(opened.test.id));
    const found = token
      ? await this.deps.repo.listenerByToken(opened.test.id, tokenHash(token))
      : undefined;
    if (found) return { listener: found, setCookie: null };
    if (!create) throw new NotFound(BLIND_TEST_MESSAGES.optionNotFound);
    if (
      !(await this.deps.limiter.hit(AUTH_RATE_RULES.blindListenerLinkIp, `${opened.link.id}:${ip}`))
    )
      throw new RateLimited(TOO_MANY);
    const fresh = randomBytes(24).toString('base64url');
    const options = await this.deps.repo.options([opened.test.id]);
    const versions = options.map((o) => o.version_id);
    const [a, b] = shuffled(versions);
    const assignment: BlindAssignment = {
      preference: shuffled(versions).map((id) => ({ version_id: id, option_id: optionId() })),
      abx:
        opened.test.mode !== 'preference' && a && b
          ? {
              a: { version_id: a, option_id: optionId() },
              b: { version_id: b, option_id: optionId() },
            }
          : null,
    };
    const now = this.now();
    const listener: BlindListenersTable = {
      id: randomUUID(),
      test_id: opened.test.id,
      link_id: opened.link.id,
      token_hash: tokenHash(fresh),
      name: opened.link.recipient_name,
      assignment: JSON.stringify(assignment),
      created_at: now,
      last_activity_at: now,
    };
    await this.deps.repo.addListener(listener);
    const cookie = [
      `${this.cookieName(opened.test.id)}=${fresh}`,
      'Path=/api/blind',
      `Max-Age=${LISTENER_COOKIE_SECONDS}`,
      'HttpOnly',
      'SameSite=Lax',
    ];
    if (this.deps.secureCookies) cookie.push('Secure');
    return { listener, setCookie: cookie.join('; ') };
  }

  /** The page: letters and opaque ids, the listener's own vote and trials, nothing else. */
  async page(opened: OpenedBlindTest, listener: BlindListenersTable): Promise<BlindListenerPage> {
    const { test, link } = opened;
    const dealt = assignmentOf(listener);
    const url = (id: string) => `/api/blind/${link.hash}/audio/${id}`;
    const option = (d: Dealt, letter: string): BlindOption => ({
      id: d.option_id,
      letter,
      audio_url: url(d.option_id),
    });
    const [vote, trials] = await Promise.all([
      this.deps.repo.vote(listener.id),
      test.mode === 'preference' ? Promise.resolve([]) : this.deps.repo.trials(listener.id),
    ]);
    const answered = trials.filter((t) => t.answered_at !== null);
    const current = trials.find((t) => t.answered_at === null) ?? null;
    const total = test.trials ?? 0;
    const finished = answered.length >= total;
    const votedFor = vote
      ? dealt.preference.find((d) => d.version_id === vote.version_id)
      : undefined;
    const done =
      (test.mode === 'abx' || vote !== undefined) && (test.mode === 'preference' || finished);
    return {
      name: test.name,
      mode: test.mode,
      recipient_name: link.recipient_name,
      status: test.status,
      levels_matched: test.status === 'ready',
      duration: test.duration,
      listener_name: listener.name,
      options:
        test.mode === 'abx'
          ? []
          : dealt.preference.map((d, i) => option(d, PREFERENCE_LETTERS[i] ?? String(i + 1))),
      vote: votedFor ? { option_id: votedFor.option_id, note: vote?.note ?? null } : null,
      abx: dealt.abx
        ? {
            a: option(dealt.abx.a, ABX_LETTERS[0]),
            b: option(dealt.abx.b, ABX_LETTERS[1]),
            trials: total,
            answered: answered.length,
            trial: current
              ? {
                  number: current.number,
                  x: { id: current.x_option_id, letter: 'X', audio_url: url(current.x_option_id) },
                }
              : null,
            result: finished
              ? abxVerdict(answered.filter((t) => t.correct === 1).length, answered.length)
              : null,
          }
        : null,
      reveal: done && test.reveal_after_voting === 1 ? await this.reveal(test, dealt) : null,
    };
  }

  /** The stored audio behind one of the listener's option ids (409 while preparing). */
  async audio(
    opened: OpenedBlindTest,
    listener: BlindListenersTable,
    id: string,
  ): Promise<{ key: string }> {
    const dealt = assignmentOf(listener);
    let versionId = [...dealt.preference, ...(dealt.abx ? [dealt.abx.a, dealt.abx.b] : [])].find(
      (d) => d.option_id === id,
    )?.version_id;
    if (!versionId) {
      const trial = (await this.deps.repo.trials(listener.id)).find((t) => t.x_option_id === id);
      versionId = trial?.x_version_id;
    }
    if (!versionId) throw new NotFound(BLIND_TEST_MESSAGES.optionNotFound);
    if (opened.test.status === 'failed') throw new Conflict(BLIND_TEST_MESSAGES.failed);
    const option = (await this.deps.repo.options([opened.test.id])).find(
      (o) => o.version_id === versionId,
    );
    if (opened.test.status !== 'ready' || !option?.audio_key)
      throw new Conflict(BLIND_TEST_MESSAGES.preparing, { code: 'version_processing' });
    return { key: option.audio_key };
  }

  /** A preference vote; a second one replaces the first. */
  async vote(
    opened: OpenedBlindTest,
    listener: BlindListenersTable,
    body: { name: string; option_id: string; note?: string | null },
  ): Promise<BlindListenerPage> {
    if (opened.test.mode === 'abx') throw new Invalid(BLIND_TEST_MESSAGES.noPreference);
    await this.act(listener);
    const chosen = assignmentOf(listener).preference.find((d) => d.option_id === body.option_id);
    if (!chosen) throw new NotFound(BLIND_TEST_MESSAGES.optionNotFound);
    const now = this.now();
    await this.deps.repo.touchListener(listener.id, { name: body.name, last_activity_at: now });
    await this.deps.repo.putVote({
      listener_id: listener.id,
      version_id: chosen.version_id,
      note: body.note || null,
      created_at: now,
      updated_at: now,
    });
    return this.page(opened, { ...listener, name: body.name });
  }

  /** Starts the next ABX trial (the current one again while it is unanswered): X drawn here. */
  async startTrial(
    opened: OpenedBlindTest,
    listener: BlindListenersTable,
    name: string,
  ): Promise<BlindListenerPage> {
    const dealt = this.abxOf(opened, listener);
    await this.act(listener);
    const now = this.now();
    await this.deps.repo.touchListener(listener.id, { name, last_activity_at: now });
    const trials = await this.deps.repo.trials(listener.id);
    if (!trials.some((t) => t.answered_at === null)) {
      if (trials.length >= (opened.test.trials ?? 0))
        throw new Conflict(BLIND_TEST_MESSAGES.abxFinished);
      const x = randomInt(2) === 0 ? dealt.a : dealt.b;
      // Two requests at once start one trial: the second finds the number taken.
      await this.deps.repo.addTrial({
        listener_id: listener.id,
        number: trials.length + 1,
        x_version_id: x.version_id,
        x_option_id: optionId(),
        correct: null,
        created_at: now,
        answered_at: null,
      });
    }
    return this.page(opened, { ...listener, name });
  }

  /** Answers the current trial (is X A or B?), checked here; each trial is answered once. */
  async answer(
    opened: OpenedBlindTest,
    listener: BlindListenersTable,
    body: { trial: number; answer: string },
  ): Promise<BlindListenerPage> {
    const dealt = this.abxOf(opened, listener);
    await this.act(listener);
    const picked = [dealt.a, dealt.b].find((d) => d.option_id === body.answer);
    if (!picked) throw new Invalid(BLIND_TEST_MESSAGES.optionNotFound);
    const current: BlindTrialsTable | undefined = (await this.deps.repo.trials(listener.id)).find(
      (t) => t.answered_at === null,
    );
    if (!current || current.number !== body.trial)
      throw new Conflict(BLIND_TEST_MESSAGES.trialOrder);
    const now = this.now();
    const correct = picked.version_id === current.x_version_id;
    if (!(await this.deps.repo.answerTrial(listener.id, current.number, correct, now)))
      throw new Conflict(BLIND_TEST_MESSAGES.trialOrder);
    await this.deps.repo.touchListener(listener.id, { last_activity_at: now });
    return this.page(opened, listener);
  }

  private abxOf(opened: OpenedBlindTest, listener: BlindListenersTable) {
    const abx = assignmentOf(listener).abx;
    if (opened.test.mode === 'preference' || !abx) throw new Invalid(BLIND_TEST_MESSAGES.noAbx);
    return abx;
  }

  /** Counts a listener's action before it is done. */
  private async act(listener: BlindListenersTable): Promise<void> {
    if (!(await this.deps.limiter.hit(AUTH_RATE_RULES.blindActionListener, listener.id)))
      throw new RateLimited(TOO_MANY);
  }

  private async reveal(test: BlindTestsTable, dealt: BlindAssignment) {
    const versions = new Map(
      (await this.deps.repo.versions(dealt.preference.map((d) => d.version_id))).map((v) => [
        v.id,
        v,
      ]),
    );
    const label = (id: string) => {
      const version = versions.get(id);
      return version ? versionLabel(version) : 'A version since deleted';
    };
    const lettered =
      test.mode === 'abx'
        ? []
        : dealt.preference.map((d, i) => ({
            letter: PREFERENCE_LETTERS[i] ?? String(i + 1),
            label: label(d.version_id),
          }));
    const abx = dealt.abx
      ? [
          { letter: ABX_LETTERS[0], label: label(dealt.abx.a.version_id) },
          { letter: ABX_LETTERS[1], label: label(dealt.abx.b.version_id) },
        ]
      : [];
    return [...lettered, ...abx];
  }

  private cookieName(testId: string): string {
    return `takes_blt_${testId.replace(/[^A-Za-z0-9]/g, '')}`;
  }

  private async find(hash: string, ip: string): Promise<OpenedBlindTest> {
    if (await this.deps.limiter.isLimited(AUTH_RATE_RULES.linkMissIp, ip))
      throw new RateLimited(TOO_MANY);
    const found = /^[A-Za-z0-9]+$/.test(hash) ? await this.deps.repo.linkByHash(hash) : undefined;
    if (!found || found.test.revoked_at !== null) {
      await this.deps.limiter.hit(AUTH_RATE_RULES.linkMissIp, ip);
      throw new NotFound(SHARE_MESSAGES.linkNotFound, { code: 'link_not_found' });
    }
    if (found.test.expires_at && found.test.expires_at <= this.now())
      throw new Gone(SHARE_MESSAGES.linkExpired, { code: 'link_expired' });
    return found;
  }
}

function assignmentOf(listener: BlindListenersTable): BlindAssignment {
  return parseJson<BlindAssignment>(listener.assignment, { preference: [], abx: null });
}
