import { useQuery } from '@tanstack/react-query';
import { routes, type RouteResult } from '@takes/contract';
import { api, ApiError } from '../../lib/api';

/** The version with the project it belongs to, for the page's heading. */
export type VersionDetail = RouteResult<typeof routes.versions.getVersion>;

export const versionKeys = {
  version: (versionId: string) => ['versions', versionId] as const,
};

export function useVersion(versionId: string) {
  return useQuery({
    queryKey: versionKeys.version(versionId),
    queryFn: ({ signal }) =>
      api.call(routes.versions.getVersion, { params: { versionId }, signal }),
    // A 404 is an answer ('Version not found'), not a hiccup worth retrying.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
}
