import { Link } from 'react-router';
import { useDemoAvailable } from '../auth/demo-availability';
import { usePageMeta } from '../../lib/use-page-meta';
import { cardClass, primaryLinkClass, secondaryLinkClass, textLinkClass } from './page-parts';

const featureCards = [
  {
    title: 'Version Control',
    anchor: 'version-control',
    text: 'Every bounce becomes a numbered version with a message and tags. Try a new arrangement on its own branch and keep main untouched until you choose.',
  },
  {
    title: 'Private Sharing',
    anchor: 'private-sharing',
    text: 'Send one version through a private link with an optional expiry date, and decide whether listeners may download it. Nothing is public unless you send the link.',
  },
  {
    title: 'Feedback Collection',
    anchor: 'feedback-collection',
    text: 'Listeners click the waveform and leave a comment pinned to that exact second, with no account needed. Notes arrive on the version they were about.',
  },
] as const;

const painPoints = [
  'A folder of files called final_mix_v7_REAL_final_mastered2.wav.',
  'Notes in a chat thread that say “the bit after the second chorus” and no one knows which mix they heard.',
  'A private link on a streaming site, and terms you never read about what happens to the upload.',
  'A transfer link that expired the week the label finally listened.',
] as const;

export function LandingPage() {
  usePageMeta(
    'Takes · Music version control with zero data harvesting',
    'Takes keeps every version of your tracks in projects and branches, shares them through private links and collects timestamped feedback. Your music is never used for AI training.',
  );
  const demoAvailable = useDemoAvailable();

  return (
    <div>
      <section className="mx-auto max-w-6xl px-4 pt-20 pb-16 sm:px-6">
        <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase dark:text-indigo-400">
          Audio collaboration for music creators
        </p>
        <h1 className="mt-3 max-w-3xl text-4xl font-extrabold tracking-tight text-zinc-900 sm:text-5xl dark:text-white">
          Music version control with zero data harvesting
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-zinc-600 dark:text-zinc-400">
          Takes is Git for music: projects, branches and versions for every track, a waveform
          player, private share links and comments pinned to the second. Your audio stays yours. It
          is never used to train AI models and never sold or handed to anyone.
        </p>
        <div className="mt-10 flex flex-wrap gap-3">
          <Link to="/login" className={primaryLinkClass}>
            Get Started
          </Link>
          <a href="#features" className={secondaryLinkClass}>
            Learn More
          </a>
        </div>
      </section>

      <section
        id="features"
        aria-labelledby="features-heading"
        className="scroll-mt-20 border-t border-zinc-200 bg-zinc-50 py-16 dark:border-zinc-800 dark:bg-zinc-900/40"
      >
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2
            id="features-heading"
            className="text-2xl font-bold tracking-tight text-zinc-900 sm:text-3xl dark:text-white"
          >
            Everything a track goes through, in one private place
          </h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {featureCards.map((card) => (
              <li key={card.title} className={cardClass}>
                <h3 className="text-lg font-semibold text-zinc-900 dark:text-white">
                  {card.title}
                </h3>
                <p className="mt-3 text-zinc-600 dark:text-zinc-400">{card.text}</p>
                <Link
                  to={`/features#${card.anchor}`}
                  className={`${textLinkClass} mt-4 inline-block`}
                >
                  More about {card.title.toLowerCase()}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="familiar-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <div className="grid gap-10 md:grid-cols-2 md:items-center">
          <div>
            <h2
              id="familiar-heading"
              className="text-2xl font-bold tracking-tight text-zinc-900 sm:text-3xl dark:text-white"
            >
              Sound familiar?
            </h2>
            <p className="mt-4 text-zinc-600 dark:text-zinc-400">
              In Takes each mix is a version on a branch, every note is tied to a second of a
              specific version, and a link shares exactly one take, for as long as you decide.
            </p>
            <Link to="/dashboard" className={`${primaryLinkClass} mt-6`}>
              Open your dashboard
            </Link>
          </div>
          <ul className="space-y-3">
            {painPoints.map((point) => (
              <li
                key={point}
                className="rounded-lg border border-zinc-200 px-4 py-3 text-zinc-700 dark:border-zinc-800 dark:text-zinc-300"
              >
                {point}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        aria-labelledby="cta-heading"
        className="border-t border-zinc-200 bg-zinc-900 py-16 text-center dark:border-zinc-800 dark:bg-zinc-900/60"
      >
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <h2 id="cta-heading" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
            Keep every take. Share only what you choose.
          </h2>
          <p className="mt-4 text-zinc-300">
            Takes is free while in early access. Start with your own account
            {demoAvailable ? ', or look around a demo workspace first.' : '.'}
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link
              to="/login"
              className="inline-flex items-center justify-center rounded-md bg-white px-4 py-2 text-sm font-semibold text-zinc-900 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
            >
              Sign up for free
            </Link>
            {demoAvailable && (
              <Link
                to="/login?demo=true"
                className="inline-flex items-center justify-center rounded-md border border-zinc-500 px-4 py-2 text-sm font-semibold text-white hover:bg-zinc-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
              >
                Try demo
              </Link>
            )}
          </div>
        </div>
      </section>
    </div>
  );
}
