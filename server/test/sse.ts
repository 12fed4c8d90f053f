import http from 'node:http';

/** One open Server-Sent Events stream, as a browser's EventSource would read it. */
export interface SseStream {
  status: number;
  /** Each `data:` payload, parsed. */
  events: unknown[];
  /** Comment lines (`: ping`) and fields other than data (`retry: 3000`). */
  lines: string[];
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  /** Waits until an event matches (or fails after `ms`). */
  waitFor<T = Record<string, unknown>>(match: (event: T) => boolean, ms?: number): Promise<T>;
  /** Waits until a non-data line matches. */
  waitForLine(match: (line: string) => boolean, ms?: number): Promise<string>;
  close(): void;
}

/** Opens `GET url` and reads it as an event stream (the status is known once headers arrive). */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } });
    request.once('error', reject);
    request.once('response', (response) => {
      const events: unknown[] = [];
      const lines: string[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let endedResolve: () => void = () => {};
      const ended = new Promise<void>((r) => (endedResolve = r));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          for (const line of block.split('\n')) {
            if (line.startsWith('data: ')) {
              try {
                events.push(JSON.parse(line.slice(6)));
              } catch {
                events.push(line.slice(6));
              }
            } else if (line) lines.push(line);
          }
        }
        for (const wake of [...waiters]) wake();
      });
      response.on('end', () => endedResolve());
      response.on('close', () => endedResolve());
      request.on('error', () => endedResolve());
      const wait = <T>(find: () => T | undefined, ms: number, what: string): Promise<T> =>
        new Promise((ok, fail) => {
          const check = () => {
            const found = find();
            if (found === undefined) return;
            clearTimeout(timer);
            waiters.delete(check);
            ok(found);
          };
          const timer = setTimeout(() => {
            waiters.delete(check);
            fail(new Error(`no ${what} within ${ms} ms; got ${JSON.stringify(events)}`));
          }, ms);
          waiters.add(check);
          check();
        });
      resolve({
        status: response.statusCode ?? 0,
        events,
        lines,
        ended,
        waitFor: <T>(match: (event: T) => boolean, ms = 2000) =>
          wait(() => (events as T[]).find(match), ms, 'matching event'),
        waitForLine: (match, ms = 2000) => wait(() => lines.find(match), ms, 'matching line'),
        close: () => {
          request.destroy();
          response.destroy();
        },
      });
    });
  });
}
