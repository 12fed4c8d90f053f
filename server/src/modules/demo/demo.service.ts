import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { MediaRunner } from '../../media/runner';
import type { ProjectsService } from '../projects/projects.service';
import type { UploadService } from '../versions/upload.service';

export const DEMO_PROJECT_NAME = 'Sample Project';

// A short phrase for each take: notes (Hz) of a C major arpeggio, then with a seventh.
const TAKES = [
  { message: 'First sketch: arpeggio idea', notes: [261.63, 329.63, 392.0] },
  { message: 'Added the seventh for colour', notes: [261.63, 329.63, 392.0, 493.88] },
];

/**
 * Gives the demo account a ready project on its first sign-in, with audio made here by
 * ffmpeg (nothing downloaded), sent through the same upload pipeline as any track.
 */
export class DemoService {
  private seeding: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      media: MediaRunner;
      uploads: UploadService;
      projects: ProjectsService;
      tmpDir: string;
    },
  ) {}

  /** One seeding at a time, and only for an account without projects. */
  seedIfEmpty(userId: string): Promise<void> {
    const run = (this.seeding ?? Promise.resolve()).then(() => this.seed(userId));
    this.seeding = run.catch(() => undefined);
    return run;
  }

  private async seed(userId: string): Promise<void> {
    const existing = await this.deps.db
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', userId)
      .executeTakeFirst();
    if (existing) return;
    const work = await fsp.mkdtemp(path.join(this.deps.tmpDir, 'demo-'));
    try {
      let target: { projectId: string; branchId: string } | undefined;
      for (const [index, take] of TAKES.entries()) {
        const file = path.join(work, `take-${index + 1}.wav`);
        await this.render(file, take.notes);
        const received = await this.deps.uploads.receive(
          fs.createReadStream(file),
          `${DEMO_PROJECT_NAME}.wav`,
        );
        try {
          const result = await this.deps.uploads.createVersion(userId, received, {
            ...(target
              ? { projectId: target.projectId, branchId: target.branchId }
              : {
                  projectName: DEMO_PROJECT_NAME,
                  projectDescription:
                    'A demo track to try branches, versions, the player and sharing.',
                }),
            commitMessage: take.message,
            tags: JSON.stringify(['demo']),
          });
          target = { projectId: result.projectId, branchId: result.branchId };
        } finally {
          await this.deps.uploads.discard(received);
        }
      }
      if (target) await this.deps.projects.createBranch(userId, target.projectId, 'acoustic');
    } finally {
      await fsp.rm(work, { recursive: true, force: true });
    }
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
