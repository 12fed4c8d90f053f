import { useState } from 'react';
import { sameOriginPath } from '../../lib/same-origin';

interface CoverImageProps {
  /** The cover's URL; null (or one that fails to load, or leaves this site): the placeholder. */
  url: string | null;
  /** The image's text alternative (ignored for the placeholder, which is decorative). */
  alt: string;
  className: string;
  testId?: string;
}

/** A collection's cover, or a neutral placeholder of the same size. */
export function CollectionCoverImage({ url, alt, className, testId }: CoverImageProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const src = sameOriginPath(url);
  if (!src || src === failedUrl)
    return (
      <div
        aria-hidden="true"
        data-testid={testId ? `${testId}-placeholder` : undefined}
        className={`${className} flex items-center justify-center border border-zinc-200 bg-zinc-100 text-zinc-400 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-600`}
      >
        <svg viewBox="0 0 24 24" className="size-1/3" fill="currentColor">
          <path d="M12 3v10.55A4 4 0 1 0 14 17V7h4V3h-6Z" />
        </svg>
      </div>
    );
  return (
    <img
      src={src}
      alt={alt}
      data-testid={testId}
      onError={() => setFailedUrl(src)}
      className={`${className} border border-zinc-200 bg-zinc-100 object-cover dark:border-zinc-800 dark:bg-zinc-900`}
    />
  );
}
