import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type RouteResult } from '@takes/contract';
import { api, ApiError } from '../../lib/api';

const guests = routes.guestUploads;

export type GuestUploadPage = RouteResult<typeof guests.openUploadLink>;

export const guestUploadKeys = { page: (key: string) => ['upload-link', key] as const };

/** 4xx are answers (unknown, expired, locked), not hiccups worth retrying. */
function retryServerErrors(count: number, error: Error): boolean {
  return !(error instanceof ApiError && error.status < 500) && count < 1;
}

export function useUploadLinkPage(key: string) {
  return useQuery({
    queryKey: guestUploadKeys.page(key),
    queryFn: ({ signal }) => api.call(guests.openUploadLink, { params: { hash: key }, signal }),
    retry: retryServerErrors,
  });
}

/** Sends the password; the server sets the link's cookie, then the page is read again. */
export function useUnlockUploadLink(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      api.call(guests.unlockUploadLink, { params: { hash: key }, body: { password } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: guestUploadKeys.page(key) }),
  });
}
