import { useQuery } from '@tanstack/react-query';
import { routes, type SearchResponse } from '@takes/contract';
import { api } from '../../lib/api';

/** What a search found among the signed-in user's projects, branches and versions. */
export type SearchResults = SearchResponse;

export const searchKeys = {
  search: (q: string) => ['search', q] as const,
};

/** Searches for `q` (already trimmed); an empty query asks nothing. */
export function useSearch(q: string) {
  return useQuery({
    queryKey: searchKeys.search(q),
    queryFn: ({ signal }) => api.call(routes.workspace.search, { query: { q }, signal }),
    enabled: q !== '',
  });
}
