import { ApiError, createApiClient, type ErrorBody } from '@takes/contract';

/** Used when the server gives no message of its own and the caller names no fallback. */
const GENERIC_FAILURE = 'Something went wrong. Please try again.';

export { ApiError };

/**
 * The typed client every feature calls the API through: `api.call(endpoints.projects.getProject,
 * { params: { projectId } })` sends the request its descriptor describes and returns its typed body.
 */
export const api = createApiClient({ credentials: 'same-origin' });

export interface RequestOptions {
  /** Shown when the server's answer carries no `error` message (each call's fixed fallback). */
  fallbackMessage?: string;
  signal?: AbortSignal;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { error?: unknown }).error === 'string'
  );
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A proxy's HTML error page, for example; the status still tells what happened.
    return undefined;
  }
}

async function request<T>(
  method: string,
  path: string,
  body: BodyInit | undefined,
  headers: Record<string, string>,
  options: RequestOptions,
): Promise<T> {
  const fallback = options.fallbackMessage ?? GENERIC_FAILURE;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      body,
      headers: { accept: 'application/json', ...headers },
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, fallback, undefined);
  }

  const payload = await readJson(response);
  if (!response.ok) {
    const serverMessage = isErrorBody(payload) ? payload.error : undefined;
    const details = isErrorBody(payload) ? payload.details : undefined;
    throw new ApiError(response.status, serverMessage ?? fallback, serverMessage, details);
  }
  return payload as T;
}

function jsonRequest<T>(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions,
): Promise<T> {
  return body === undefined
    ? request<T>(method, path, undefined, {}, options)
    : request<T>(
        method,
        path,
        JSON.stringify(body),
        { 'content-type': 'application/json' },
        options,
      );
}

export function apiGet<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return jsonRequest<T>('GET', path, undefined, options);
}

export function apiPost<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  // Every POST is JSON, even without fields: a JSON content type cannot be sent cross-site
  // without a CORS preflight, and an empty body under that type is refused, hence `{}`.
  return jsonRequest<T>('POST', path, body ?? {}, options);
}

export function apiPatch<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  return jsonRequest<T>('PATCH', path, body, options);
}

/** Multipart upload; the browser sets the content type with its boundary. */
export function apiPostForm<T>(
  path: string,
  form: FormData,
  options: RequestOptions = {},
): Promise<T> {
  return request<T>('POST', path, form, {}, options);
}

/** The message to show for any error thrown by an API call or a parser. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
