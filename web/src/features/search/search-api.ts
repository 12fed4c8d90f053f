import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';

/** `GET /api/search?q=`: the signed-in user's projects, branches and versions that match. */
export interface SearchResults {
  projects: { id: string; name: string; description: string | null }[];
  branches: { id: string; name: string; project_id: string; project_name: string }[];
  versions: {
    id: string;
    project_id: string;
    branch_id: string;
    version_number: number;
    message: string | null;
    tags: string[];
    created_at: string;
    project_name: string;
    branch_name: string;
  }[];
}

export const searchKeys = {
  search: (q: string) => ['search', q] as const,
};

/** Searches for `q` (already trimmed); an empty query asks nothing. */
export function useSearch(q: string) {
  return useQuery({
    queryKey: searchKeys.search(q),
    queryFn: ({ signal }) =>
      apiGet<SearchResults>(`/api/search?q=${encodeURIComponent(q)}`, { signal }),
    enabled: q !== '',
  });
}
