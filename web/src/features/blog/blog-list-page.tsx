import { Link } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import { PageSpinner } from '../../ui/spinner';
import { PageHeader, PageShell } from '../marketing/page-parts';
import { formatPostDate, useBlogPosts } from './blog-api';
import { PostTags } from './post-tags';

export function BlogListPage() {
  usePageMeta(
    'Blog · Takes',
    'Notes from the Takes team on versioning music, collecting feedback that helps, and keeping your audio private.',
  );
  const posts = useBlogPosts();

  return (
    <PageShell>
      <PageHeader eyebrow="Blog" title="From the Takes team">
        <p>
          How we think about versions, feedback and privacy, and how to get the most from Takes.
        </p>
      </PageHeader>

      {posts.isPending ? (
        <PageSpinner label="Loading blog posts" />
      ) : posts.isError ? (
        <p role="alert" className="text-red-600 dark:text-red-400">
          Failed to load blog posts
        </p>
      ) : posts.data.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">No blog posts found.</p>
      ) : (
        <ul className="space-y-10">
          {posts.data.map((post) => (
            <li key={post.slug}>
              <article>
                <time dateTime={post.date} className="text-sm text-zinc-500 dark:text-zinc-400">
                  {formatPostDate(post.date)}
                </time>
                <h2 className="mt-1 text-xl font-semibold text-zinc-900 dark:text-white">
                  <Link
                    to={`/blog/${encodeURIComponent(post.slug)}`}
                    className="hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-indigo-400"
                  >
                    {post.title}
                  </Link>
                </h2>
                <p className="mt-2 text-zinc-600 dark:text-zinc-400">{post.description}</p>
                <div className="mt-3">
                  <PostTags tags={post.tags} />
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
    </PageShell>
  );
}
