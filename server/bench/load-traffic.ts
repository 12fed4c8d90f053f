/**
 * The load benchmark's traffic: autocannon connections that each act as one person (its own
 * cookie, address and requests), and the upload loops. Every answer is recorded with the label
 * of the request it answers, so the figures can be split per endpoint.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { percentile, uploadFile, type UploadAnswer } from './support';
import type { Person } from './load-seed';

export interface KindFigures {
  kind: string;
  seconds: number;
  /** Response times in ms, per request label. */
  latencies: Map<string, number[]>;
  statuses: Map<number, number>;
  /** Answers outside 2xx, and connection errors and timeouts (autocannon counts both). */
  badStatuses: number;
  socketErrors: number;
  bytes: number;
}

/** One request of a simulated person: a label for the figures, and its Range if it has one. */
export interface PersonRequest {
  label: string;
  path: string;
  range?: () => string;
}

export interface PersonPlan {
  person: Pick<Person, 'cookie' | 'ip'> | undefined;
  /** Requested in order, over and over. */
  requests: PersonRequest[];
}

/** `plans.length` connections for `seconds`, each one person repeating its requests. */
export async function runPeople(
  kind: string,
  origin: string,
  plans: PersonPlan[],
  seconds: number,
  /** Requests per second per connection; undefined: the next as soon as an answer arrives. */
  connectionRate?: number,
): Promise<KindFigures> {
  const figures: KindFigures = {
    kind,
    seconds,
    latencies: new Map(),
    statuses: new Map(),
    badStatuses: 0,
    socketErrors: 0,
    bytes: 0,
  };
  let connected = 0;
  const url = new URL(origin);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: origin,
        connections: plans.length,
        duration: seconds,
        timeout: 10,
        ...(connectionRate ? { connectionRate } : {}),
        setupClient(client) {
          const plan = plans[connected++ % plans.length] as PersonPlan;
          const headers: Record<string, string> = { host: url.host };
          if (plan.person) {
            headers.cookie = plan.person.cookie;
            headers['x-forwarded-for'] = plan.person.ip;
          }
          // With one request in flight per connection, an answer is for the last one built.
          let inFlight = '';
          client.setRequests(
            plan.requests.map((request) => ({
              method: 'GET' as const,
              path: request.path,
              headers,
              setupRequest(built) {
                inFlight = request.label;
                if (!request.range) return built;
                return { ...built, headers: { ...built.headers, range: request.range() } };
              },
            })),
          );
          client.on('response', (status: number, bytes: number, ms: number) => {
            const list = figures.latencies.get(inFlight) ?? [];
            list.push(ms);
            figures.latencies.set(inFlight, list);
            figures.statuses.set(status, (figures.statuses.get(status) ?? 0) + 1);
            if (status < 200 || status > 299) figures.badStatuses++;
            figures.bytes += bytes;
          });
        },
      },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
  });
  figures.socketErrors = result.errors;
  return figures;
}

export function allLatencies(figures: KindFigures): number[] {
  return [...figures.latencies.values()].flat();
}

/** Requests, errors, throughput and p50/p95/p99, one line. */
export function describe(figures: KindFigures): string {
  const all = allLatencies(figures);
  const errors = figures.badStatuses + figures.socketErrors;
  const mbps = figures.bytes / 2 ** 20 / figures.seconds;
  const statuses = [...figures.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
  return (
    `${figures.kind.padEnd(10)} ${String(all.length).padStart(7)} requests, ${errors} errors ` +
    `(${figures.socketErrors} socket/timeouts; ${statuses}), ` +
    `${(all.length / figures.seconds).toFixed(0)} req/s, ${mbps.toFixed(1)} MiB/s, ` +
    `p50 ${fmt(percentile(all, 50))} p95 ${fmt(percentile(all, 95))} p99 ${fmt(percentile(all, 99))}`
  );
}

export const fmt = (ms: number) => `${ms < 10 ? ms.toFixed(1) : ms.toFixed(0)} ms`;

/** One line per label, slowest p95 first: where the time goes. */
export function describeLabels(figures: KindFigures): string[] {
  return [...figures.latencies.entries()]
    .map(([label, list]) => ({ label, list, p95: percentile(list, 95) }))
    .sort((a, b) => b.p95 - a.p95)
    .map(
      ({ label, list, p95 }) =>
        `    ${label.padEnd(34)} ${String(list.length).padStart(6)} req  p50 ${fmt(percentile(list, 50))}  p95 ${fmt(p95)}  p99 ${fmt(percentile(list, 99))}`,
    );
}

export interface UploadFigures {
  seconds: number[];
  errors: string[];
  made: { person: Person; versionId: string }[];
}

/**
 * Each uploader uploads the WAV, waits for the answer, and uploads again until `until`. The last
 * bytes of each upload are fresh noise, so every upload is a new original (not deduplicated by
 * content hash) and is processed like any other.
 */
export async function runUploads(
  origin: string,
  uploaders: Person[],
  wav: Buffer,
  until: number,
): Promise<UploadFigures> {
  const figures: UploadFigures = { seconds: [], errors: [], made: [] };
  const tail = 6 * 1024;
  function* content(): Iterable<Buffer> {
    for (let at = 0; at < wav.length - tail; at += 1024 * 1024)
      yield wav.subarray(at, Math.min(at + 1024 * 1024, wav.length - tail));
    yield randomBytes(tail);
  }
  await Promise.all(
    uploaders.map(async (person, u) => {
      let target: UploadAnswer | undefined;
      for (let n = 1; Date.now() < until; n++) {
        const started = performance.now();
        try {
          const fields: Record<string, string> = target
            ? {
                project_id: target.projectId,
                branch_id: target.branchId,
                commit_message: `Take ${n}`,
              }
            : { project_name: `Uploads ${u + 1}` };
          const answer = await uploadFile(origin, person.cookie, {
            fields,
            fileName: `take-${n}.wav`,
            content,
            headers: { 'x-forwarded-for': person.ip },
          });
          target ??= answer;
          figures.seconds.push((performance.now() - started) / 1000);
          figures.made.push({ person, versionId: answer.versionId });
        } catch (error) {
          figures.errors.push(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  return figures;
}
