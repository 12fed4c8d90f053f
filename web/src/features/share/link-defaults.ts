import { useQuery } from '@tanstack/react-query';
import { routes, type LinkDefaults } from '@takes/contract';
import { api } from '../../lib/api';

/** Until the instance's defaults arrive (or when they cannot be read): no expiry, no downloads. */
export const FALLBACK_LINK_DEFAULTS: LinkDefaults = {
  expires_in_days: null,
  allow_downloads: false,
};

/**
 * What a new share link starts from on this instance (an admin sets it on /admin): the share
 * dialogs show these until the person changes them.
 */
export function useLinkDefaults(): LinkDefaults {
  const query = useQuery({
    queryKey: ['link-defaults'],
    queryFn: ({ signal }) => api.call(routes.admin.getLinkDefaults, { signal }),
    staleTime: Infinity,
    retry: false,
  });
  const data = query.data;
  // An answer of another shape (an older server) is no defaults at all.
  return data && typeof data.allow_downloads === 'boolean' ? data : FALLBACK_LINK_DEFAULTS;
}

/** The expiry date field's value `days` from today (local time), or '' for none. */
export function expiryDateIn(days: number | null, now = new Date()): string {
  if (days === null) return '';
  const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}
