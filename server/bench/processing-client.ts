/**
 * `bench:processing` as a client: the upload (streamed multipart, as a browser sends it), the
 * processing route polled at a fixed interval as the goal says a client sees 'completed', and the
 * live event stream the web app also listens to.
 */
import fs from 'node:fs';
import { sleep, uploadFile } from './support';

/** Streams the file as multipart (never held in memory), like a browser would. */
export function uploadWav(origin: string, cookie: string, file: string, name: string) {
  return uploadFile(origin, cookie, {
    fields: { project_name: 'Benchmark' },
    fileName: name,
    content: () => fs.createReadStream(file, { highWaterMark: 1024 * 1024 }),
  });
}

export interface ClientSaw {
  /** Date.now() when the answer reading 'completed' had arrived. */
  at: number;
  /** performance.now() then. */
  perf: number;
  /** Requests made, the last one included. */
  polls: number;
}

/**
 * Polls `GET /api/versions/:id/processing` (the route the web app's processing poller reads) with
 * the uploader's cookie, the first request at `fromPerf` (the upload's answer) and then every
 * `everyMs` from the start of the one before (as a timer-driven poller does; one in flight at a
 * time), until an answer reads 'completed'. Throws if one reads 'failed'.
 */
export async function pollUntilCompleted(
  origin: string,
  cookie: string,
  versionId: string,
  everyMs: number,
  fromPerf: number,
): Promise<ClientSaw> {
  let due = fromPerf;
  for (let polls = 1; ; polls++) {
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    due = Math.max(due + everyMs, performance.now());
    const response = await fetch(`${origin}/api/versions/${versionId}/processing`, {
      headers: { cookie },
    });
    if (!response.ok) throw new Error(`processing route: ${response.status}`);
    const body = (await response.json()) as { status: string; error: string | null };
    if (body.status === 'completed') return { at: Date.now(), perf: performance.now(), polls };
    if (body.status === 'failed') throw new Error(`processing failed: ${body.error}`);
    if (performance.now() - fromPerf > 600_000) throw new Error('not completed within 10 minutes');
  }
}

export interface LiveOutcome {
  kind: string;
  /** Date.now() when the event arrived. */
  at: number;
}

/**
 * The signed-in user's live event stream (`GET /api/events`, Server-Sent Events); `settled(id)`
 * answers the version's processing outcome event ('version.processed' / 'version.failed') and
 * when it arrived.
 */
export async function liveEvents(origin: string, cookie: string) {
  const outcomes = new Map<string, LiveOutcome>();
  const waiting = new Map<string, (outcome: LiveOutcome) => void>();
  const controller = new AbortController();
  const response = await fetch(`${origin}/api/events`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`live events: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let connected: () => void = () => {};
  const isConnected = new Promise<void>((resolve) => (connected = resolve));
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: '', done: true }));
      if (done) return;
      const at = Date.now();
      buffered += value;
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const message = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (message.includes(': connected')) connected();
        const data = /^data: (.*)$/m.exec(message)?.[1];
        if (!data) continue;
        const event = JSON.parse(data) as { kind?: string; versionId?: string | null };
        if (
          event.versionId &&
          (event.kind === 'version.processed' || event.kind === 'version.failed')
        ) {
          const outcome = { kind: event.kind, at };
          outcomes.set(event.versionId, outcome);
          waiting.get(event.versionId)?.(outcome);
        }
      }
    }
  })();
  await isConnected;
  return {
    settled(versionId: string): Promise<LiveOutcome> {
      const known = outcomes.get(versionId);
      if (known) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('no processing outcome within 10 minutes')),
          600_000,
        );
        waiting.set(versionId, (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        });
      });
    },
    close: () => controller.abort(),
  };
}
