import { useMutation, useQuery } from '@tanstack/react-query';
import type { ShareLink, sharedVersionSchema } from '@takes/contract';
import { ApiError, apiGet, apiPost } from '../../lib/api';

/** `GET /api/links/hash/{hash}`: what anyone holding the link may see. */
export type SharedVersion = ReturnType<typeof sharedVersionSchema.parse>;

export interface CreateLinkInput {
  name?: string;
  download_enabled: boolean;
  expires_at: string | null;
}

export const shareKeys = {
  shared: (hash: string) => ['share', hash] as const,
};

export function sharedAudioUrl(hash: string): string {
  return `/api/links/hash/${hash}/audio`;
}

export function sharedDownloadUrl(hash: string): string {
  return `/api/links/hash/${hash}/download`;
}

export function useSharedVersion(hash: string) {
  return useQuery({
    queryKey: shareKeys.shared(hash),
    queryFn: ({ signal }) => apiGet<SharedVersion>(`/api/links/hash/${hash}`, { signal }),
    // 404 (unknown or revoked) and 410 (expired) are answers, not hiccups worth retrying.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
}

export function useCreateLink(versionId: string) {
  return useMutation({
    mutationFn: (input: CreateLinkInput) =>
      apiPost<ShareLink>(`/api/versions/${versionId}/links`, input),
  });
}
