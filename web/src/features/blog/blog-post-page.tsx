import { Link, useParams } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import { PageSpinner } from '../../ui/spinner';
import { PageShell, textLinkClass } from '../marketing/page-parts';
import { formatPostDate, isNotFound, useBlogPost } from './blog-api';
import { PostMarkdown } from './post-markdown';
import { PostTags } from './post-tags';

function isSameOriginPath(path: string | null): path is string {
  return !!path && path.startsWith('/') && !path.startsWith('//');
}

export function BlogPostPage() {
  const { slug = '' } = useParams();
  const post = useBlogPost(slug);
  const title = post.data
    ? `${post.data.title} · Takes Blog`
    : post.isError
      ? isNotFound(post.error)
        ? 'Post not found · Takes Blog'
        : 'Failed to load post · Takes Blog'
      : 'Blog · Takes';
  usePageMeta(title, post.data?.description ?? 'A post from the Takes blog.');

  const backLink = (
    <Link to="/blog" className={textLinkClass}>
      <span aria-hidden="true">← </span>
      Back to all posts
    </Link>
  );

  if (post.isPending) return <PageSpinner label="Loading post" />;

  if (post.isError) {
    return (
      <PageShell>
        <p role="alert" className="text-lg font-medium text-red-600 dark:text-red-400">
          {isNotFound(post.error) ? 'Post not found' : 'Failed to load post'}
        </p>
        <p className="mt-6">{backLink}</p>
      </PageShell>
    );
  }

  const { data } = post;
  return (
    <PageShell>
      <article>
        <p className="mb-8">{backLink}</p>
        {isSameOriginPath(data.hero) && (
          <img
            src={data.hero}
            alt=""
            className="mb-8 aspect-[2/1] w-full rounded-xl object-cover"
          />
        )}
        <header>
          <time dateTime={data.date} className="text-sm text-zinc-500 dark:text-zinc-400">
            {formatPostDate(data.date)}
          </time>
          <h1 className="mt-2 text-3xl font-bold tracking-tight text-zinc-900 sm:text-4xl dark:text-white">
            {data.title}
          </h1>
          <div className="mt-4">
            <PostTags tags={data.tags} />
          </div>
        </header>
        <PostMarkdown markdown={data.markdown} />
      </article>
    </PageShell>
  );
}
