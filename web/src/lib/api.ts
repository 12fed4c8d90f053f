import { ApiError, apiErrorFrom, createApiClient } from '@takes/contract';

export { ApiError };

/**
 * The typed client every feature calls the API through: `api.call(endpoints.projects.getProject,
 * { params: { projectId } })` sends the request its descriptor describes and returns its typed body;
 * `api.url(endpoint, { params })` builds the address for an <audio>, a link or an XMLHttpRequest.
 */
export const api = createApiClient({ credentials: 'same-origin' });

/**
 * A JSON POST by path, for the one caller not yet on the typed client: features/repos/publish-bounce.ts,
 * which moves onto the contract's shared publish flow (publishBounceFile) in a change of its own.
 * Remove this once that lands; everything else uses `api.call`.
 */
export async function apiPost<T>(path: string, body: unknown = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'Something went wrong. Please try again.', undefined);
  }
  if (!response.ok) throw await apiErrorFrom(response);
  const text = await response.text();
  try {
    return (text ? JSON.parse(text) : undefined) as T;
  } catch {
    // A proxy's HTML page, for example; the caller finds the fields missing.
    return undefined as T;
  }
}

/** The message to show for any error thrown by an API call or a parser. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
