import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError, apiGet, apiPost } from '../../lib/api';

/** `GET /api/debug`: the server's health, for the instance's admins. */
export interface DebugReport {
  database: { dialect: string; migrations: string[]; latest: string | null };
  storage: { kind: string; status: string; detail?: string };
  ffmpeg: { status: string; version: string | null; source: string | null };
  jobs: { queue: string; queued: number; active: number; completed: number; failed: number };
}

/** `POST /api/debug/round-trip`: how long inserting and deleting a test project took. */
export interface RoundTrip {
  projectId: string;
  insertMs: number;
  deleteMs: number;
}

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
    queryFn: ({ signal }) => apiGet<DebugReport>('/api/debug', { signal }),
    // A 404 is an answer, not a hiccup: asking again would not change it.
    retry: (failures, error) => !isNotAvailable(error) && failures < 1,
  });
}

export function useRoundTrip() {
  return useMutation({
    mutationFn: () => apiPost<RoundTrip>('/api/debug/round-trip'),
  });
}
