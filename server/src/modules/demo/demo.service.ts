import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { AUTH_MESSAGES, DEMO_EMAIL_DOMAIN, DEMO_LIFETIME_MS, DEMO_MESSAGES } from '@takes/contract';
import type { Auth } from '../../auth/auth';
import type { RateLimiter, RateRule } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type { Dialect } from '../../db/dialect-sql';
import { NotFound, RateLimited } from '../../errors';
import { expireDemoAccountJob } from './jobs';
import type { JobQueue } from '../../jobs/job-queue';
import type { MediaRunner } from '../../media/runner';
import type { AuthResult, AuthService, RequestContext } from '../auth';
import type { ProjectsService } from '../projects';
import type { UploadService } from '../versions';
import type { DemoRepo } from './demo.repo';

export const DEMO_PROJECT_NAME = 'Sample Project';

// A short phrase for each take: notes (Hz) of a C major arpeggio, then with a seventh.
const TAKES = [
  { message: 'First sketch: arpeggio idea', notes: [261.63, 329.63, 392.0] },
  { message: 'Added the seventh for colour', notes: [261.63, 329.63, 392.0, 493.88] },
];

export const DEMO_NAME = 'Demo Musician';

/** New demo accounts per address: enough for a household, not for a script. */
export const DEMO_CREATE_RULE: RateRule = {
  name: 'demo-create:ip',
  limit: 10,
  windowMs: 60 * 60_000,
};

export interface DemoDeps {
  repo: DemoRepo;
  dialect: Dialect;
  auth: Auth;
  /** Builds the signed-in answer the other sign-ins give. */
  sessions: AuthService;
  limiter: RateLimiter;
  jobs: JobQueue;
  clock: Clock;
  /** DEMO_ENABLED. */
  enabled: boolean;
  /** A demo account is a new account: only while anyone may sign up. */
  signups: { requireOpen(): Promise<void> };
  media: MediaRunner;
  uploads: UploadService;
  projects: ProjectsService;
  tmpDir: string;
}

/**
 * 'Try demo': each visitor gets an account of their own (a random address on a reserved
 * domain, no password), with a ready project whose audio is made here by ffmpeg (nothing
 * downloaded) and sent through the same upload pipeline as any track. A job deletes it with
 * everything in it 24 hours later; demo-policy.ts says what it may not do meanwhile.
 */
export class DemoService {
  private samples: Promise<Buffer[]> | undefined;

  constructor(private readonly deps: DemoDeps) {}

  async start(ctx: RequestContext): Promise<AuthResult> {
    if (!this.deps.enabled) throw new NotFound(DEMO_MESSAGES.disabled);
    await this.deps.signups.requireOpen();
    if (!(await this.deps.limiter.hit(DEMO_CREATE_RULE, ctx.ip)))
      throw new RateLimited(AUTH_MESSAGES.tooManyRequests);
    const { userId, email } = await this.createAccount();
    await this.seed(userId);
    const { headers: cookies, response } = await this.deps.auth.api.signInProvenEmail({
      body: { email },
      headers: ctx.headers,
      returnHeaders: true,
    });
    const expiresAt = await this.deps.repo.sessionExpiresAt(response.token);
    return {
      cookies,
      body: await this.deps.sessions.sessionBody(userId, new Date(expiresAt).toISOString()),
    };
  }

  /** The user, its demo mark and the job that ends it, all or nothing. */
  private async createAccount(): Promise<{ userId: string; email: string }> {
    const userId = randomUUID();
    const email = `${randomBytes(16).toString('hex')}@${DEMO_EMAIL_DOMAIN}`;
    const now = this.deps.clock.now();
    await this.deps.repo.transaction(async (trx) => {
      await this.deps.repo.insertAccount(
        {
          id: userId,
          name: DEMO_NAME,
          email,
          // better-auth keeps booleans as 0/1 on SQLite.
          email_verified: this.deps.dialect === 'postgres' ? true : 1,
          image: null,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        },
        {
          expires_at: new Date(now.getTime() + DEMO_LIFETIME_MS).toISOString(),
          created_at: now.toISOString(),
        },
        trx,
      );
      await this.deps.jobs.enqueue(
        expireDemoAccountJob,
        { userId },
        { executor: trx, delayMs: DEMO_LIFETIME_MS },
      );
    });
    return { userId, email };
  }

  /**
   * The takes' audio, rendered once per process and kept (about 3 MB): every demo account gets
   * the same sample, so only the first visitor waits for ffmpeg. A failed render is tried again.
   */
  private sampleAudio(): Promise<Buffer[]> {
    this.samples ??= this.renderSamples().catch((error: unknown) => {
      this.samples = undefined;
      throw error;
    });
    return this.samples;
  }

  private async renderSamples(): Promise<Buffer[]> {
    const work = await fsp.mkdtemp(path.join(this.deps.tmpDir, 'demo-'));
    try {
      const audio: Buffer[] = [];
      for (const [index, take] of TAKES.entries()) {
        const file = path.join(work, `take-${index + 1}.wav`);
        await this.render(file, take.notes);
        audio.push(await fsp.readFile(file));
      }
      return audio;
    } finally {
      await fsp.rm(work, { recursive: true, force: true });
    }
  }

  private async seed(userId: string): Promise<void> {
    const audio = await this.sampleAudio();
    let target: { projectId: string; branchId: string } | undefined;
    for (const [index, take] of TAKES.entries()) {
      const received = await this.deps.uploads.receive(
        Readable.from([audio[index] as Buffer]),
        `${DEMO_PROJECT_NAME}.wav`,
      );
      try {
        const result = await this.deps.uploads.createVersion(userId, received, {
          ...(target
            ? { project_id: target.projectId, branch_id: target.branchId }
            : {
                project_name: DEMO_PROJECT_NAME,
                project_description:
                  'A demo track to try branches, versions, the player and comments.',
              }),
          commit_message: take.message,
          tags: JSON.stringify(['demo']),
        });
        target = { projectId: result.project_id, branchId: result.branch_id };
      } finally {
        await this.deps.uploads.discard(received);
      }
    }
    if (target) await this.deps.projects.createBranch(userId, target.projectId, 'acoustic');
  }

  /** Eight seconds of the notes played one after another, looping, softly. */
  private async render(file: string, notes: number[]): Promise<void> {
    const step = 0.25;
    const inputs = notes.flatMap((frequency) => [
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${frequency}:sample_rate=44100:duration=8`,
    ]);
    const gates = notes
      .map(
        (_, i) =>
          `[${i}:a]volume=0.2*between(mod(t\\,${step * notes.length})\\,${i * step}\\,${(i + 1) * step}):eval=frame[n${i}]`,
      )
      .join(';');
    const mix = `${notes.map((_, i) => `[n${i}]`).join('')}amix=inputs=${notes.length},volume=${notes.length},aecho=0.8:0.7:120:0.35,aformat=channel_layouts=stereo[out]`;
    await this.deps.media.ffmpeg(
      [
        '-y',
        ...inputs,
        '-filter_complex',
        `${gates};${mix}`,
        '-map',
        '[out]',
        '-c:a',
        'pcm_s16le',
        file,
      ],
      {
        timeoutMs: 60_000,
      },
    );
  }
}
