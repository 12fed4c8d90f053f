import type { ErrorCode } from './errors';
import type { RouteOf } from './route';
import {
  isZodSchema,
  type BinaryBody,
  type BodyInput,
  type Endpoint,
  type MultipartBody,
  type ParamsInput,
  type QueryInput,
  type Result,
} from './endpoint';

/**
 * The one typed client for the Takes API, built on the endpoint descriptors: the web app, the CLI,
 * the end-to-end tests and the server's tests all call the API through it.
 */

/** Whatever fetch accepts as a body (a string, FormData, a Blob, a stream). */
type RequestBody = NonNullable<RequestInit['body']>;

const GENERIC_FAILURE = 'Something went wrong. Please try again.';

/**
 * A failed call: the HTTP status (0 when no answer came), a message for people, and the server's
 * `code` for programs to branch on (never on the message).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    /** The `error` field the server sent, when it sent one. */
    readonly serverMessage: string | undefined,
    readonly details?: unknown,
    /** The `code` field the server sent (one of ERROR_CODES), when it sent one. */
    readonly code?: ErrorCode,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** Origin of the server ('' in the browser: same origin). */
  baseUrl?: string;
  /** The fetch to call (a test passes one that injects into the app). */
  fetch?: typeof fetch;
  /** Headers for every call (a bearer token, a cookie, an origin). */
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
  credentials?: RequestInit['credentials'];
  /** Called when a call could not be sent at all (the CLI names the server it could not reach). */
  onNetworkError?: (error: unknown) => Error;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends T` asks whether every key of T is optional
type Optional<T> = undefined extends T ? true : {} extends T ? true : false;

type ParamsPart<E extends Endpoint> =
  ParamsInput<E> extends undefined ? { params?: undefined } : { params: ParamsInput<E> };
type QueryPart<E extends Endpoint> =
  QueryInput<E> extends undefined
    ? { query?: undefined }
    : Optional<QueryInput<E>> extends true
      ? { query?: QueryInput<E> }
      : { query: QueryInput<E> };
type BodyPart<E extends Endpoint> = E['body'] extends MultipartBody
  ? { form: FormData }
  : E['body'] extends BinaryBody
    ? { data: RequestBody; contentType?: string }
    : E['body'] extends undefined
      ? { body?: undefined }
      : Optional<BodyInput<E>> extends true
        ? { body?: BodyInput<E> }
        : { body: BodyInput<E> };

export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The message when the answer carries none of its own. */
  fallbackMessage?: string;
}

export type CallInput<E extends Endpoint> = ParamsPart<E> &
  QueryPart<E> &
  BodyPart<E> &
  CallOptions;

type RequiredKeys<T> = {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- as in Optional above
  [K in keyof T]-?: {} extends Pick<T, K> ? never : K;
}[keyof T];
/** The input may be left out when nothing in it is required. */
export type CallArgs<E extends Endpoint> =
  RequiredKeys<CallInput<E>> extends never ? [input?: CallInput<E>] : [input: CallInput<E>];

interface AnyInput extends CallOptions {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  form?: FormData;
  data?: RequestBody;
  contentType?: string;
}

/** How a request's body is sent, from a descriptor or a schema-free route. */
function bodyKind(endpoint: Endpoint | RouteOf): RouteOf['body'] {
  const body = endpoint.body;
  if (typeof body === 'string') return body;
  if (body === undefined) return 'none';
  if (isZodSchema(body)) return 'json';
  return body.kind;
}

/** The path with its parameters filled in and the query string added. */
export function endpointUrl(
  endpoint: Endpoint | RouteOf,
  input: { params?: Record<string, unknown>; query?: Record<string, unknown> } = {},
  baseUrl = '',
): string {
  const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = input.params?.[name];
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new Error(`${endpoint.name}: ${name} is missing`);
    }
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const query = search.toString();
  return `${baseUrl}${path}${query ? `?${query}` : ''}`;
}

async function readPayload(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A proxy's HTML error page, for example; the status still tells what happened.
    return undefined;
  }
}

/** The server's refusal as an ApiError carrying its own message, code and details. */
export async function apiErrorFrom(
  response: Response,
  fallback = GENERIC_FAILURE,
): Promise<ApiError> {
  // Checked by hand rather than with the zod error schema, so the client itself stays zod-free.
  const payload = await readPayload(response);
  const body =
    typeof payload === 'object' && payload !== null
      ? (payload as { error?: unknown; code?: unknown; details?: unknown })
      : {};
  const serverMessage = typeof body.error === 'string' ? body.error : undefined;
  // A code this client does not list yet is passed on as it is: it still names the refusal.
  const code = typeof body.code === 'string' ? (body.code as ErrorCode) : undefined;
  return new ApiError(
    response.status,
    serverMessage ?? fallback,
    serverMessage,
    serverMessage === undefined ? undefined : body.details,
    code,
  );
}

export function createApiClient(options: ClientOptions = {}) {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  async function send(endpoint: Endpoint | RouteOf, input: AnyInput = {}): Promise<Response> {
    const kind = bodyKind(endpoint);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(await options.headers?.()),
      ...input.headers,
    };
    let body: RequestBody | undefined;
    if (input.form) body = input.form;
    else if (input.data !== undefined) {
      body = input.data;
      if (input.contentType) headers['content-type'] = input.contentType;
    } else if (kind === 'json' || kind === 'none') {
      // Every write carries a JSON body, even without fields: a JSON content type cannot be sent
      // cross-site without a CORS preflight, and an empty body under that type is refused.
      if (endpoint.method !== 'GET' && endpoint.method !== 'DELETE') {
        body = JSON.stringify(input.body ?? {});
        headers['content-type'] = 'application/json';
      }
    }
    const init: RequestInit & { duplex?: 'half' } = {
      method: endpoint.method,
      headers,
      body,
      signal: input.signal,
      redirect: 'manual',
    };
    if (options.credentials) init.credentials = options.credentials;
    // A streamed body (Node) must say it is sent while the answer may already come.
    if (body && typeof (body as ReadableStream).getReader === 'function') init.duplex = 'half';
    try {
      return await doFetch(endpointUrl(endpoint, input, baseUrl), init);
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') throw error;
      if (options.onNetworkError) throw options.onNetworkError(error);
      throw new ApiError(0, input.fallbackMessage ?? GENERIC_FAILURE, undefined);
    }
  }

  return {
    /** Calls a JSON (or 204) endpoint; a refusal throws ApiError with the server's message. */
    async call<E extends Endpoint>(
      endpoint: E | RouteOf<E>,
      ...[input]: CallArgs<E>
    ): Promise<Result<E>> {
      const given = (input ?? {}) as AnyInput;
      const response = await send(endpoint, given);
      if (!response.ok) throw await apiErrorFrom(response, given.fallbackMessage);
      if (response.status === 204) return undefined as Result<E>;
      const payload = await readPayload(response);
      if (payload === undefined && response.status !== 204) {
        throw new ApiError(response.status, given.fallbackMessage ?? GENERIC_FAILURE, undefined);
      }
      return payload as Result<E>;
    },
    /** Sends the request and hands back the Response as it is (audio, archives, redirects). */
    fetch<E extends Endpoint>(
      endpoint: E | RouteOf<E>,
      ...[input]: CallArgs<E>
    ): Promise<Response> {
      return send(endpoint, input ?? {});
    },
    /** The URL of an endpoint (for an <audio src>, a download link, a redirect). */
    url<E extends Endpoint>(
      endpoint: E | RouteOf<E>,
      input: { params?: ParamsInput<E>; query?: QueryInput<E> },
    ): string {
      return endpointUrl(endpoint, input, baseUrl);
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
