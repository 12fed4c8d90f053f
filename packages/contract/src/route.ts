import type { Endpoint, HttpMethod, Result } from './endpoint';

/**
 * What a caller needs at run time to send a request for an endpoint, without its zod schemas:
 * the web app calls through these (src/routes.ts, generated from the descriptors), so a page that
 * only talks to the API never downloads zod. The descriptor's types ride along in `__endpoint`.
 */
export interface RouteOf<E extends Endpoint = Endpoint> {
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly body: 'none' | 'json' | 'multipart' | 'binary';
  /** Never set: carries the descriptor's type for the client's inference. */
  readonly __endpoint?: E;
}

/** What calling a route answers with (the JSON of its success response). */
export type RouteResult<R> = R extends RouteOf<infer E> ? Result<E> : never;
