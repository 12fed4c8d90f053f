import type { ComponentPropsWithoutRef } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import remarkGfm from 'remark-gfm';

/** Same-origin paths only: the site loads nothing from other origins. */
function isSameOriginPath(src: unknown): src is string {
  return typeof src === 'string' && src.startsWith('/') && !src.startsWith('//');
}

function MarkdownLink({
  href,
  children,
  node: _node,
  ...rest
}: ComponentPropsWithoutRef<'a'> & { node?: unknown }) {
  const linkClass =
    'font-medium text-indigo-600 underline underline-offset-2 hover:text-indigo-500 dark:text-indigo-400';
  if (isSameOriginPath(href)) {
    return (
      <Link to={href} className={linkClass}>
        {children}
      </Link>
    );
  }
  return (
    <a {...rest} href={href} className={linkClass} rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

const components: Components = {
  h1: ({ children }) => (
    <h2 className="mt-10 text-2xl font-semibold text-zinc-900 dark:text-white">{children}</h2>
  ),
  h2: ({ children }) => (
    <h2 className="mt-10 text-2xl font-semibold text-zinc-900 dark:text-white">{children}</h2>
  ),
  h3: ({ children }) => (
    <h3 className="mt-8 text-xl font-semibold text-zinc-900 dark:text-white">{children}</h3>
  ),
  h4: ({ children }) => (
    <h4 className="mt-6 font-semibold text-zinc-900 dark:text-white">{children}</h4>
  ),
  p: ({ children }) => <p className="mt-5">{children}</p>,
  ul: ({ children }) => <ul className="mt-5 list-disc space-y-2 pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="mt-5 list-decimal space-y-2 pl-6">{children}</ol>,
  blockquote: ({ children }) => (
    <blockquote className="mt-5 border-l-4 border-zinc-300 pl-4 text-zinc-600 italic dark:border-zinc-700 dark:text-zinc-400">
      {children}
    </blockquote>
  ),
  a: MarkdownLink,
  code: ({ children }) => (
    <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.9em] dark:bg-zinc-800">
      {children}
    </code>
  ),
  pre: ({ children }) => (
    <pre className="mt-5 overflow-x-auto rounded-lg bg-zinc-100 p-4 text-sm dark:bg-zinc-900 [&_code]:bg-transparent [&_code]:p-0">
      {children}
    </pre>
  ),
  hr: () => <hr className="my-10 border-zinc-200 dark:border-zinc-800" />,
  img: ({ src, alt }) =>
    isSameOriginPath(src) ? (
      <img src={src} alt={alt ?? ''} loading="lazy" className="mt-5 rounded-lg" />
    ) : (
      <span>{alt}</span>
    ),
  table: ({ children }) => (
    <div className="mt-5 overflow-x-auto">
      <table className="w-full text-left text-sm">{children}</table>
    </div>
  ),
  th: ({ children }) => (
    <th className="border-b border-zinc-300 px-3 py-2 font-semibold dark:border-zinc-700">
      {children}
    </th>
  ),
  td: ({ children }) => (
    <td className="border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">{children}</td>
  ),
};

/** Renders a post's Markdown. Raw HTML in the source is not rendered (react-markdown's default). */
export function PostMarkdown({ markdown }: { markdown: string }) {
  return (
    <div className="leading-7 text-zinc-700 dark:text-zinc-300">
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {markdown}
      </Markdown>
    </div>
  );
}
