/**
 * Where processing's time goes, read from outside the server (nothing added to it): the ffmpeg
 * processes it starts (its children in /proc, sampled every 10 ms: when each was first seen and
 * last seen running, and its CPU), the job's row (claimed), the stored files (each renamed into
 * place: its ctime), and the 'version.processed' activity row, written in the transaction that
 * sets 'completed'.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../src/db/database';
import { cpuSeconds, sleep } from './support';

export type Role = '320k' | '128k' | 'meter' | 'flac' | 'probe' | 'other';
/** The three processes 'completed' waits for (the FLAC is not waited for). */
export const THREE: Role[] = ['320k', '128k', 'meter'];

export interface ChildRun {
  pid: number;
  role: Role | undefined;
  /** Date.now() when first seen, and when first seen gone (or a zombie): within 10 ms late. */
  seen: number;
  end: number | undefined;
  /** User + system CPU seconds at the last sample (10 ms ticks). */
  cpu: number;
}

function roleOf(pid: number): Role | undefined {
  let argv: string[];
  try {
    argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
  const program = path.basename(argv[0] ?? '');
  if (program.includes('ffprobe')) return 'probe';
  if (!program.includes('ffmpeg')) return undefined; // not yet exec'd, or not ffmpeg
  const args = argv.join(' ');
  if (args.includes('ebur128')) return 'meter';
  if (args.includes('flac')) return 'flac';
  if (args.includes('320k')) return '320k';
  if (args.includes('128k')) return '128k';
  return 'other';
}

function statOf(pid: number): { state: string; cpu: number } | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return { state: fields[0] ?? '?', cpu: (Number(fields[11]) + Number(fields[12])) / 100 };
  } catch {
    return undefined;
  }
}

/** The child processes of `parent` (its main thread's, which is where Node spawns them). */
export class ChildWatch {
  private readonly runs = new Map<number, ChildRun>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly parent: number) {
    this.tick();
    this.timer = setInterval(() => this.tick(), 10);
  }

  /** Stops sampling; the ffmpeg and ffprobe processes seen. */
  stop(): ChildRun[] {
    clearInterval(this.timer);
    this.tick();
    return [...this.runs.values()].filter((run) => run.role && run.role !== 'other');
  }

  /** Any ffmpeg or ffprobe still running. */
  busy(): boolean {
    return [...this.runs.values()].some((run) => run.role && run.end === undefined);
  }

  private tick(): void {
    const now = Date.now();
    let pids: number[] = [];
    try {
      const list = fs.readFileSync(`/proc/${this.parent}/task/${this.parent}/children`, 'utf8');
      pids = list.split(' ').filter(Boolean).map(Number);
    } catch {
      // the parent is gone
    }
    for (const pid of pids) {
      let run = this.runs.get(pid);
      if (!run) {
        run = { pid, role: undefined, seen: now, end: undefined, cpu: 0 };
        this.runs.set(pid, run);
      }
      if (run.end !== undefined) continue;
      run.role ??= roleOf(pid);
      const stat = statOf(pid);
      if (!stat || stat.state === 'Z') run.end = now;
      else run.cpu = stat.cpu;
    }
    for (const run of this.runs.values())
      if (run.end === undefined && !pids.includes(run.pid)) run.end = now;
  }
}

/** Busy CPU seconds of the whole machine so far, all cores (/proc/stat; steal not counted). */
function machineBusySeconds(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  // cpu user nice system idle iowait irq softirq steal
  const [user, nice, system, , , irq, softirq] = line.split(/\s+/).slice(1).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) / 100;
}

const ownCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * How busy the rest of the machine was over a span: the CPU everything used, less this process,
 * the server's processes (serve, and the worker with pg-boss) and the ffmpeg processes watched,
 * in cores (10 ms ticks, so rough). PostgreSQL counts as other processes.
 */
export class CpuWindow {
  private readonly start = performance.now();
  private readonly busy = machineBusySeconds();
  private readonly own = ownCpuSeconds();
  private readonly servers: number;

  constructor(private readonly serverPids: number[]) {
    this.servers = this.serversCpu();
  }

  othersCores(children: ChildRun[]): number {
    const seconds = (performance.now() - this.start) / 1000;
    const ours =
      ownCpuSeconds() -
      this.own +
      (this.serversCpu() - this.servers) +
      children.reduce((sum, run) => sum + run.cpu, 0);
    return Math.max(0, machineBusySeconds() - this.busy - ours) / seconds;
  }

  /** CPU seconds this process (the bench) has used since. */
  benchSeconds(): number {
    return ownCpuSeconds() - this.own;
  }

  private serversCpu(): number {
    return this.serverPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  }
}

/** First start and last end of the three, in Date.now() ms. */
export function spanOfThree(runs: ChildRun[]): { start: number; end: number } {
  const three = runs.filter((run) => run.role && THREE.includes(run.role));
  return {
    start: Math.min(...three.map((run) => run.seen)),
    end: Math.max(...three.map((run) => run.end ?? NaN)),
  };
}

/**
 * The processing job's claim, from its row: when (Date.now() ms) and how long after its enqueue.
 * pg-boss keeps both times (created_on is the enqueuing transaction's start, so the delay errs
 * long); the embedded queue keeps the enqueue time, and the claim's time while the job is active
 * (read every 2 ms).
 */
export async function watchPickup(
  database: DatabaseHandle,
  versionId: string,
  pgboss: boolean,
): Promise<{ at: number; delayMs: number }> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (pgboss) {
      const { rows } = await sql<{ started: number | null; delay: number | null }>`
        select extract(epoch from started_on) * 1000 as started,
          extract(epoch from (started_on - created_on)) * 1000 as delay
        from pgboss.job where data->>'versionId' = ${versionId}
      `.execute(database.db);
      const row = rows[0];
      if (row?.started != null && row.delay != null)
        return { at: Number(row.started), delayMs: Number(row.delay) };
    } else {
      const job = await database.db
        .selectFrom('jobs')
        .select(['state', 'created_at', 'updated_at'])
        .where(sql<string>`json_extract(payload, '$.versionId')`, '=', versionId)
        .executeTakeFirst();
      // The claim stamps updated_at; lease renewals (every third of the lease) come much later.
      if (job?.state === 'active') {
        const at = Date.parse(job.updated_at);
        return { at, delayMs: at - Date.parse(job.created_at) };
      }
      if (job && job.state !== 'queued') throw new Error('the processing job ended unseen');
    }
    if (Date.now() > deadline) throw new Error('the processing job did not start');
    await sleep(pgboss ? 50 : 2);
  }
}

/** Waits until the processing job has ended (the FLAC made after 'completed' included). */
export async function jobFinished(
  database: DatabaseHandle,
  versionId: string,
  pgboss: boolean,
): Promise<void> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const { rows } = pgboss
      ? await sql<{ state: string }>`
          select state from pgboss.job where data->>'versionId' = ${versionId}
        `.execute(database.db)
      : await sql<{ state: string }>`
          select state from jobs where json_extract(payload, '$.versionId') = ${versionId}
        `.execute(database.db);
    const state = rows[0]?.state;
    if (state === 'completed') return;
    if (state === 'failed') throw new Error('the processing job failed');
    if (Date.now() > deadline) throw new Error('the processing job did not end');
    await sleep(50);
  }
}

export interface Stored {
  high: number;
  standard: number;
  peaks: number;
  lossless: number;
  /** 'completed' written: the 'version.processed' activity row's time. */
  completed: number;
}

/** When each output was stored (renamed into place in the local store) and 'completed' written. */
export async function storedTimes(
  database: DatabaseHandle,
  objects: string,
  versionId: string,
): Promise<Stored> {
  const ctime = (key: string) => {
    try {
      return fs.statSync(path.join(objects, key)).ctimeMs;
    } catch {
      return NaN;
    }
  };
  const activity = await database.db
    .selectFrom('activity')
    .select('created_at')
    .where('kind', '=', 'version.processed')
    .where('target_id', '=', versionId)
    .executeTakeFirst();
  return {
    high: ctime(`renditions/${versionId}/high.mp3`),
    standard: ctime(`renditions/${versionId}/standard.mp3`),
    peaks: ctime(`peaks/${versionId}.json`),
    lossless: ctime(`renditions/${versionId}/lossless.flac`),
    completed: activity ? Date.parse(activity.created_at) : NaN,
  };
}

export interface ProcessingRound {
  /** Date.now() at the upload's answer. */
  answer: number;
  claimed: number;
  pickupMs: number;
  children: ChildRun[];
  stored: Stored;
  /** Date.now() when the live event arrived, and when the poll saw 'completed'. */
  live: number;
  client: number;
}

/** The stages, in seconds; the first five add up to the client's figure. */
export const STAGES = [
  'answer → encodes start',
  'the three encodes',
  'last encode end → outputs stored',
  'stored → completed written',
  'completed → client sees it',
] as const;

export function stagesOf(round: ProcessingRound): number[] {
  const { start, end } = spanOfThree(round.children);
  const s = round.stored;
  const lastStored = Math.max(s.high, s.standard, s.peaks);
  return [
    start - round.answer,
    end - start,
    lastStored - end,
    s.completed - lastStored,
    round.client - s.completed,
  ].map((ms) => ms / 1000);
}

/** CPU seconds of each of the three (and the FLAC), by role. */
export function cpuByRole(runs: ChildRun[]): Partial<Record<Role, number>> {
  const out: Partial<Record<Role, number>> = {};
  for (const run of runs) if (run.role) out[run.role] = (out[run.role] ?? 0) + run.cpu;
  return out;
}

/** Seconds from the three's first start to each one's end, by role. */
export function endsByRole(runs: ChildRun[]): Partial<Record<Role, number>> {
  const { start } = spanOfThree(runs);
  const out: Partial<Record<Role, number>> = {};
  for (const run of runs)
    if (run.role && run.end !== undefined) out[run.role] = (run.end - start) / 1000;
  return out;
}
