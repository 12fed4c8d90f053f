import { ApiError, createApiClient } from '@takes/contract';

export { ApiError };

/**
 * The typed client every feature calls the API through: `api.call(routes.projects.getProject,
 * { params: { projectId } })` sends the request its descriptor describes and returns its typed body;
 * `api.url(endpoint, { params })` builds the address for an <audio>, a link or an XMLHttpRequest.
 */
export const api = createApiClient({ credentials: 'same-origin' });

/** The message to show for any error thrown by an API call or a parser. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
