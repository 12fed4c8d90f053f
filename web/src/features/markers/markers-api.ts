import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes, type Marker, type MarkerFormat } from '@takes/contract';
import { api } from '../../lib/api';
import { commentKeys } from '../comments/comments-api';

/** Whose comments to export: a version (its members) or a share link (its listeners). */
export type MarkerSource = { versionId: string } | { hash: string };

/** The address of the marker file: a plain same-origin GET, so a link with `download` fetches it. */
export function markersUrl(
  source: MarkerSource,
  format: MarkerFormat,
  includeResolved: boolean,
): string {
  const query = { format, resolved: includeResolved ? 'include' : 'exclude' } as const;
  return 'versionId' in source
    ? api.url(routes.markers.getVersionMarkers, {
        params: { versionId: source.versionId },
        query,
      })
    : api.url(routes.markers.getShareLinkMarkers, { params: { hash: source.hash }, query });
}

interface PostMarkers {
  markers: readonly Marker[];
  /** Called after each comment is saved, with how many are saved so far. */
  onPosted: (count: number) => void;
}

/**
 * Posts each marker as a comment by the signed-in person, one after another in the given order
 * (a failure stops there: the ones before it are saved), and refreshes the version's comments
 * once at the end.
 */
export function usePostMarkers(versionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ markers, onPosted }: PostMarkers) => {
      let count = 0;
      for (const marker of markers) {
        await api.call(routes.comments.addVersionComment, {
          params: { versionId },
          body: {
            content: marker.label,
            timestamp: marker.start,
            end_timestamp: marker.end,
            team_only: false,
          },
        });
        onPosted(++count);
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: commentKeys.versionAll(versionId) }),
  });
}
