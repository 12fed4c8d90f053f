import { useQuery } from '@tanstack/react-query';
import { routes } from '@takes/contract';
import { api } from '../../lib/api';

export const playerKeys = {
  qualities: (versionId: string | undefined) => ['versions', versionId, 'qualities'] as const,
};

/** The version's qualities; without a version nothing is asked. */
export function useVersionQualities(versionId: string | undefined) {
  return useQuery({
    queryKey: playerKeys.qualities(versionId),
    queryFn: ({ signal }) =>
      api.call(routes.versions.getVersionQualities, {
        params: { versionId: versionId ?? '' },
        signal,
      }),
    enabled: Boolean(versionId),
    // A failed call is tolerated: the options simply stay unavailable.
    retry: false,
  });
}
