import { Link } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import { PageHeader, PageShell, primaryLinkClass, Section, textLinkClass } from './page-parts';

const included = [
  'Projects, branches and versions for all your tracks',
  'Uploads of MP3, WAV, FLAC, AAC and M4A files',
  'Your original file kept, plus 320 kbps and 128 kbps MP3 renditions and a waveform',
  'Private share links with optional expiry and download control',
  'Timestamped comments from listeners, no account needed for them',
  'Repositories, commits and bounces from the desktop app and the takes CLI',
  'A/B compare of two bounces',
] as const;

export function PricingPage() {
  usePageMeta(
    'Pricing · Takes',
    'Takes is free while in early access. What the free plan includes, its limits, and why there are no paid plans yet.',
  );

  return (
    <PageShell>
      <PageHeader eyebrow="Pricing" title="Free while in early access">
        <p>
          Every account has every feature at no cost while Takes is in early access. There are no
          paid plans yet, and no card details are asked for.
        </p>
      </PageHeader>

      <div className="rounded-xl border-2 border-indigo-600 p-6 dark:border-indigo-400">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-xl font-semibold text-zinc-900 dark:text-white">Early access</h2>
          <p className="text-3xl font-bold text-zinc-900 dark:text-white">Free</p>
        </div>
        <ul className="mt-6 space-y-2">
          {included.map((item) => (
            <li key={item} className="flex gap-3 text-zinc-700 dark:text-zinc-300">
              <span aria-hidden="true" className="text-indigo-600 dark:text-indigo-400">
                ✓
              </span>
              {item}
            </li>
          ))}
        </ul>
        <Link to="/login" className={`${primaryLinkClass} mt-8`}>
          Sign up for free
        </Link>
      </div>

      <Section title="Limits">
        <ul className="list-disc space-y-2 pl-6">
          <li>Each upload can be at most 500 MB.</li>
          <li>Only audio files are accepted: MP3, WAV, FLAC, AAC and M4A.</li>
        </ul>
      </Section>

      <Section title="What happens after early access">
        <p>
          Storing and processing audio costs money, so Takes will eventually offer paid plans. When
          that happens, we will announce prices well in advance, and you will always be able to
          download your original files, whichever plan you choose or if you choose none. Paying us
          is how Takes will be funded; selling your data or training models on your music is not.
        </p>
        <p>
          Questions about larger teams or labels?{' '}
          <Link to="/contact" className={textLinkClass}>
            Contact us
          </Link>
          .
        </p>
      </Section>
    </PageShell>
  );
}
