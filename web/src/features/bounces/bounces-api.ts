import { useQuery } from '@tanstack/react-query';
import { routes } from '@takes/contract';
import { api } from '../../lib/api';

/** The bounces page reads the 50 most recent, legacy versions included. */
export const RECENT_BOUNCES_LIMIT = 50;

export function useRecentBounces() {
  return useQuery({
    queryKey: ['bounces', 'recent', RECENT_BOUNCES_LIMIT],
    queryFn: ({ signal }) =>
      api
        .call(routes.bounces.listRecentBounces, {
          query: { limit: RECENT_BOUNCES_LIMIT, all: 'true' },
          signal,
          fallbackMessage: 'Failed to load',
        })
        .then((body) => body.bounces),
  });
}
