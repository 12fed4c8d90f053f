import { routes } from '@takes/contract';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../lib/api';

export function useBlogPosts() {
  return useQuery({
    queryKey: ['blog', 'posts'],
    queryFn: ({ signal }) =>
      api.call(routes.site.listBlogPosts, { signal }).then((body) => body.posts),
  });
}

export function useBlogPost(slug: string) {
  return useQuery({
    queryKey: ['blog', 'post', slug],
    queryFn: ({ signal }) =>
      api.call(routes.site.getBlogPost, { params: { slug }, signal }).then((body) => body.post),
    // A missing post stays missing; asking again only delays the message.
    retry: (failureCount, error) => !isNotFound(error) && failureCount < 1,
  });
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** '2026-09-14' as 'Sep 14, 2026', whatever the visitor's time zone. */
export function formatPostDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return parsed.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
