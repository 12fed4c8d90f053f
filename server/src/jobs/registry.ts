import type { z } from 'zod';

export interface JobLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface JobContext {
  jobId: string;
  /** 1 on the first run, 2 on the first retry, and so on. */
  attempt: number;
  /** Aborted when the job runs past its time limit or the worker loses its lease. */
  signal: AbortSignal;
  logger: JobLogger;
}

/** What enqueueing needs to know of a job: its name and payload schema. */
export interface JobRef<P = unknown> {
  readonly name: string;
  readonly payload: z.ZodType<P>;
}

/**
 * A background job: its name, the zod schema of its payload and its handler.
 * Handlers must be idempotent: a job can run again after a crash half-way.
 */
export interface JobDefinition<P = unknown> extends JobRef<P> {
  /** How many times a failed run is retried (so at most retryLimit + 1 runs). */
  readonly retryLimit: number;
  /** First retry delay; each further retry doubles it. */
  readonly retryDelaySeconds: number;
  /** Longest a single run may take before it is aborted and counted as failed. */
  readonly timeoutSeconds: number;
  // Method syntax on purpose: it lets a JobDefinition<P> be held as a JobDefinition<unknown>.
  handle(payload: P, context: JobContext): Promise<void>;
}

export interface JobSpec<S extends z.ZodType> {
  name: string;
  payload: S;
  handle: (payload: z.output<S>, context: JobContext) => Promise<void>;
  retryLimit?: number;
  retryDelaySeconds?: number;
  timeoutSeconds?: number;
}

const JOB_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;

export function defineJob<S extends z.ZodType>(spec: JobSpec<S>): JobDefinition<z.output<S>> {
  if (!JOB_NAME.test(spec.name)) throw new Error(`Invalid job name: ${spec.name}`);
  return {
    name: spec.name,
    payload: spec.payload as z.ZodType<z.output<S>>,
    retryLimit: spec.retryLimit ?? 4,
    retryDelaySeconds: spec.retryDelaySeconds ?? 10,
    timeoutSeconds: spec.timeoutSeconds ?? 15 * 60,
    handle: spec.handle,
  };
}

export class UnknownJobError extends Error {
  override name = 'UnknownJobError';
}

/** Every job this process can run. Queues refuse names that are not in it. */
export class JobRegistry {
  private readonly byName = new Map<string, JobDefinition>();

  constructor(definitions: readonly JobDefinition[]) {
    for (const definition of definitions) {
      if (this.byName.has(definition.name)) {
        throw new Error(`Job ${definition.name} is defined twice`);
      }
      this.byName.set(definition.name, definition);
    }
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  definitions(): JobDefinition[] {
    return [...this.byName.values()];
  }

  get(name: string): JobDefinition {
    const definition = this.byName.get(name);
    if (!definition) throw new UnknownJobError(`Job "${name}" has no handler registered`);
    return definition;
  }

  /** Throws when any of these queued job names has no handler. */
  assertHandled(queuedNames: Iterable<string>): void {
    const missing = [...new Set(queuedNames)].filter((name) => !this.byName.has(name)).sort();
    if (missing.length > 0) {
      throw new UnknownJobError(
        `Queued jobs have no handler registered: ${missing.join(', ')}. ` +
          'Deploy a version that handles them, or remove those jobs.',
      );
    }
  }
}
