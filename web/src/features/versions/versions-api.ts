import { useQuery } from '@tanstack/react-query';
import type { Project, Version } from '@takes/contract';
import { ApiError, apiGet } from '../../lib/api';

/** `GET /api/versions/{id}`: the version with the project it belongs to, for the page's heading. */
export type VersionDetail = Version & { project: Pick<Project, 'id' | 'name'> };

export const versionKeys = {
  version: (versionId: string) => ['versions', versionId] as const,
};

export function useVersion(versionId: string) {
  return useQuery({
    queryKey: versionKeys.version(versionId),
    queryFn: ({ signal }) => apiGet<VersionDetail>(`/api/versions/${versionId}`, { signal }),
    // A 404 is an answer ('Version not found'), not a hiccup worth retrying.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
}
