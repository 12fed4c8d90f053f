import type { z } from 'zod';

/**
 * Endpoint descriptors: one object per API operation (method, path, params, query, body, responses,
 * who may call it). The server registers its routes from them, the typed client calls them, and the
 * OpenAPI document is built from them, so the three cannot drift apart.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How a caller proves who it is. The OpenAPI document declares each once as a security scheme.
 * - session: the browser's session cookie;
 * - desktopToken: the desktop app's or CLI's bearer token;
 * - uploadToken: the single-use `x-upsert-token` of one bounce upload;
 * - shareKey: the share link's key (whoever holds the link may use what it opens).
 */
export type AuthScheme = 'session' | 'desktopToken' | 'uploadToken' | 'shareKey';

/**
 * Whether a signed-in 'Try demo' account may call an operation: 'allowed', or refused with the
 * sentence it is told (403). Every descriptor says which; the server's `route()` enforces it, so a
 * new route that mails or shares cannot be left open to throwaway accounts by being forgotten.
 */
export type DemoRule = 'allowed' | { readonly refused: string };

/** A body that is not JSON: audio, an archive, an image, a redirect or nothing. */
export interface BinaryResponse {
  readonly kind: 'binary';
  readonly mediaTypes: readonly string[];
  readonly description: string;
  /** Answers Range requests with 206 Partial Content. */
  readonly ranges?: boolean;
  /** The response names its file (Content-Disposition: attachment). */
  readonly attachment?: boolean;
}
export interface TextResponse {
  readonly kind: 'text';
  readonly mediaType: string;
  readonly description: string;
}
export interface RedirectResponse {
  readonly kind: 'redirect';
  readonly description: string;
}
export interface EmptyResponse {
  readonly kind: 'empty';
  readonly description: string;
}
export type ResponseSpec =
  z.ZodType | BinaryResponse | TextResponse | RedirectResponse | EmptyResponse;

/** multipart/form-data: text fields (validated by the route) and named file parts. */
export interface MultipartBody {
  readonly kind: 'multipart';
  readonly fields: z.ZodObject;
  /** File part name -> what it holds. */
  readonly files: Readonly<Record<string, string>>;
  readonly required: readonly string[];
}
/** A raw body streamed to the server (an audio file, an image). */
export interface BinaryBody {
  readonly kind: 'binary';
  readonly mediaTypes: readonly string[];
  readonly description: string;
}
export type BodySpec = z.ZodType | MultipartBody | BinaryBody;

export interface Endpoint {
  /** The OpenAPI operationId and the client's name for it: camelCase, stable. */
  readonly name: string;
  readonly method: HttpMethod;
  /** The full path with Fastify-style parameters, e.g. `/api/projects/:projectId`. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  /** The module it belongs to (one OpenAPI tag per module). */
  readonly tag: string;
  /** Any one of these admits the caller; an empty list makes the operation public. */
  readonly auth: readonly AuthScheme[];
  /** What a 'Try demo' account may do here (required: a descriptor that does not say fails). */
  readonly demo: DemoRule;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: BodySpec;
  /** Request headers the operation reads (documented; a route checks them itself). */
  readonly headers?: Readonly<Record<string, { description: string; required?: boolean }>>;
  /** Success responses by status (exactly one 2xx or 3xx is the usual case). */
  readonly responses: Readonly<Partial<Record<number, ResponseSpec>>>;
  /** The error statuses it can answer, each with the one error body. */
  readonly errors: readonly number[];
}

/** Declares an endpoint, keeping its literal types for the server and the client. */
export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}

export const isZodSchema = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;

export const binary = (
  mediaTypes: readonly string[],
  description: string,
  options: { ranges?: boolean; attachment?: boolean } = {},
): BinaryResponse => ({ kind: 'binary', mediaTypes, description, ...options });
export const text = (mediaType: string, description: string): TextResponse => ({
  kind: 'text',
  mediaType,
  description,
});
export const redirect = (description: string): RedirectResponse => ({
  kind: 'redirect',
  description,
});
export const empty = (description = 'Done; no content.'): EmptyResponse => ({
  kind: 'empty',
  description,
});
export const multipart = <const F extends z.ZodObject>(
  fields: F,
  files: Record<string, string>,
  required: readonly string[] = [],
): MultipartBody & { readonly fields: F } => ({ kind: 'multipart', fields, files, required });
export const binaryBody = (mediaTypes: readonly string[], description: string): BinaryBody => ({
  kind: 'binary',
  mediaTypes,
  description,
});

// ---- Types derived from a descriptor ----

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

export type ParamsInput<E extends Endpoint> = InputOf<E['params']>;
export type ParamsOutput<E extends Endpoint> = OutputOf<E['params']>;
export type QueryInput<E extends Endpoint> = InputOf<E['query']>;
export type QueryOutput<E extends Endpoint> = OutputOf<E['query']>;
/** A JSON body as the caller sends it (undefined for multipart/binary/no body). */
export type BodyInput<E extends Endpoint> = E['body'] extends z.ZodType
  ? z.input<E['body']>
  : undefined;
export type BodyOutput<E extends Endpoint> = E['body'] extends z.ZodType
  ? z.output<E['body']>
  : undefined;

type SuccessSpecs<E extends Endpoint> = E['responses'][keyof E['responses']];
/** What the server's handler returns for a JSON endpoint (before serialisation). */
export type ResultInput<E extends Endpoint> =
  SuccessSpecs<E> extends infer S ? (S extends z.ZodType ? z.input<S> : never) : never;
/** What the client receives: the JSON of a success response, or undefined for 204. */
export type Result<E extends Endpoint> =
  SuccessSpecs<E> extends infer S
    ? S extends z.ZodType
      ? z.output<S>
      : S extends EmptyResponse
        ? undefined
        : never
    : never;

/** The statuses a descriptor answers with on success, in declaration order. */
export function successStatuses(endpoint: Endpoint): number[] {
  return Object.keys(endpoint.responses)
    .map(Number)
    .filter((status) => status < 400);
}

/**
 * The name OpenAPI gives a path's trailing wildcard (Fastify's `*`, whose value is the rest of
 * the path): OpenAPI has no wildcard, only named parameters.
 */
export const WILDCARD_PARAM = 'key';

/** A descriptor's path parameter name as the OpenAPI document spells it (`*` is `key`). */
export function openApiParamName(name: string): string {
  return name === '*' ? WILDCARD_PARAM : name;
}

/**
 * `/api/projects/:projectId` -> `/api/projects/{projectId}` and `/api/storage/*` ->
 * `/api/storage/{key}` (OpenAPI's form).
 */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, `{${WILDCARD_PARAM}}`);
}
