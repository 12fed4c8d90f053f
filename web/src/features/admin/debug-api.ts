import { useMutation, useQuery } from '@tanstack/react-query';
import { routes } from '@takes/contract';
import { api, ApiError } from '../../lib/api';

export const debugKeys = {
  report: ['debug'] as const,
};

/** The server answers 404 to anyone but the instance's admins (ADMIN_EMAILS). */
export function isNotAvailable(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export function useDebugReport() {
  return useQuery({
    queryKey: debugKeys.report,
    queryFn: ({ signal }) => api.call(routes.workspace.getDebugReport, { signal }),
    // A 404 is an answer, not a hiccup: asking again would not change it.
    retry: (failures, error) => !isNotAvailable(error) && failures < 1,
  });
}

export function useRoundTrip() {
  return useMutation({
    mutationFn: () => api.call(routes.workspace.runDebugRoundTrip),
  });
}
