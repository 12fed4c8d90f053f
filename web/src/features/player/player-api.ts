import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';

type Tier = 'original' | 'high' | 'standard';

/** `GET /api/versions/{id}/qualities`: the renditions a version has, for the quality menu. */
export interface Qualities {
  available: Tier[];
  qualities: Partial<Record<Tier, { fileSize: number; format: string }>>;
}

export const playerKeys = {
  qualities: (versionId: string | undefined) => ['versions', versionId, 'qualities'] as const,
};

/** The version's qualities; without a version nothing is asked. */
export function useVersionQualities(versionId: string | undefined) {
  return useQuery({
    queryKey: playerKeys.qualities(versionId),
    queryFn: ({ signal }) => apiGet<Qualities>(`/api/versions/${versionId}/qualities`, { signal }),
    enabled: Boolean(versionId),
    // A failed call is tolerated: the options simply stay unavailable.
    retry: false,
  });
}
