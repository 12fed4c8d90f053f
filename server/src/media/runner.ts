import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { Writable } from 'node:stream';
import { BUNDLED_FFMPEG_HINT, describeFfmpeg, type MediaTools } from './tools';

export interface RunOptions {
  /** Wall-clock limit; the process is killed when it is reached. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Where stdout goes; by default it is collected and returned. */
  stdout?: Writable;
  /** Refuse to collect more than this much stdout (default 64 MiB). */
  maxStdoutBytes?: number;
  /**
   * Run at a lower CPU priority (a nice value 1..19), for work that shares the machine
   * with a step on the critical path: that step then keeps its core.
   */
  niceness?: number;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

export class MediaToolError extends Error {
  override name = 'MediaToolError';
  constructor(
    message: string,
    readonly stderr: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

export class MediaTimeoutError extends MediaToolError {
  override name = 'MediaTimeoutError';
}

const STDERR_KEEP = 64 * 1024;

/**
 * Runs ffmpeg and ffprobe: argument arrays (never a shell), inputs limited to local files
 * (`-protocol_whitelist file` before every input), a wall-clock timeout, captured stderr.
 */
export class MediaRunner {
  private readonly live = new Set<ChildProcess>();

  constructor(readonly tools: MediaTools) {}

  /** Kills every ffmpeg/ffprobe still running (at exit, so none outlives the server). */
  killAll(): void {
    for (const child of this.live) child.kill('SIGKILL');
    this.live.clear();
  }

  ffmpeg(args: readonly string[], options: RunOptions): Promise<RunResult> {
    return run(
      this.tools.ffmpeg,
      ['-hide_banner', '-nostdin', ...whitelistInputs(args)],
      options,
      this.live,
    );
  }

  ffprobe(args: readonly string[], options: RunOptions): Promise<RunResult> {
    return run(
      this.tools.ffprobe,
      ['-hide_banner', '-protocol_whitelist', 'file', ...args],
      options,
      this.live,
    );
  }

  /** First line of `ffmpeg -version`, e.g. "ffmpeg version 5.1.6-0+deb12u1". */
  /** The ffmpeg in use: its version line, path and source, and the hint when it is the bundled one. */
  async version(): Promise<string> {
    const { stdout } = await run(this.tools.ffmpeg, ['-version'], { timeoutMs: 10_000 });
    const line = stdout.toString('utf8').split('\n')[0]?.trim() ?? 'unknown';
    const described = `${line}; ${describeFfmpeg(this.tools)}`;
    return this.tools.source.ffmpeg === 'npm' ? `${described}; ${BUNDLED_FFMPEG_HINT}` : described;
  }
}

/** Puts `-protocol_whitelist file` in front of every `-i`, so no input can reach the network. */
export function whitelistInputs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-protocol_whitelist') {
      throw new Error('Callers may not set -protocol_whitelist; the runner sets it');
    }
    if (arg === '-i') out.push('-protocol_whitelist', 'file');
    out.push(arg);
  }
  return out;
}

function run(
  binary: string,
  args: string[],
  options: RunOptions,
  live: Set<ChildProcess> = new Set(),
): Promise<RunResult> {
  return new Promise<RunResult>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new MediaToolError('Cancelled before it started', '', null));
      return;
    }
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    live.add(child);
    if (options.niceness && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, options.niceness);
      } catch {
        // Priority is an optimisation; where it cannot be set, the work still runs.
      }
    }
    const chunks: Buffer[] = [];
    let stdoutBytes = 0;
    // The tail of stderr: chunks are held until they pass twice the limit, then joined once.
    let tail: string[] = [];
    let tailLength = 0;
    const stderrText = () => {
      const text = tail.join('').slice(-STDERR_KEEP);
      tail = [text];
      return text;
    };
    let failure: MediaToolError | undefined;
    const maxStdout = options.maxStdoutBytes ?? 64 * 1024 * 1024;

    const kill = (error: MediaToolError) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () =>
        kill(
          new MediaTimeoutError(
            `${label(binary)} timed out after ${options.timeoutMs} ms`,
            stderrText(),
            null,
          ),
        ),
      options.timeoutMs,
    );
    const onAbort = () =>
      kill(new MediaToolError(`${label(binary)} was cancelled`, stderrText(), null));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    if (options.stdout) {
      child.stdout.pipe(options.stdout);
    } else {
      child.stdout.on('data', (chunk: Buffer) => {
        stdoutBytes += chunk.length;
        if (stdoutBytes > maxStdout) {
          kill(
            new MediaToolError(
              `${label(binary)} wrote more output than allowed`,
              stderrText(),
              null,
            ),
          );
          return;
        }
        chunks.push(chunk);
      });
    }
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      tail.push(text);
      tailLength += text.length;
      if (tailLength > 2 * STDERR_KEEP) {
        tail = [tail.join('').slice(-STDERR_KEEP)];
        tailLength = STDERR_KEEP;
      }
    });
    child.once('error', (error) =>
      kill(
        new MediaToolError(
          `${label(binary)} could not start: ${error.message}`,
          stderrText(),
          null,
        ),
      ),
    );
    child.once('close', (code) => {
      live.delete(child);
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (failure) {
        reject(failure);
      } else if (code !== 0) {
        reject(
          new MediaToolError(
            `${label(binary)} failed (exit ${code}): ${lastLines(stderrText())}`,
            stderrText(),
            code,
          ),
        );
      } else {
        resolve({ stdout: Buffer.concat(chunks), stderr: stderrText() });
      }
    });
  });
}

function label(binary: string): string {
  return binary.includes('ffprobe') ? 'ffprobe' : 'ffmpeg';
}

function lastLines(text: string, count = 3): string {
  return text.trim().split('\n').slice(-count).join(' | ') || 'no error output';
}
