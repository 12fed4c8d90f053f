import { Link } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import {
  cardClass,
  PageHeader,
  PageShell,
  primaryLinkClass,
  secondaryLinkClass,
  Section,
} from './page-parts';

const values = [
  {
    title: 'Privacy First',
    text: 'Your audio, comments and projects are stored to run the service for you and for no other reason. No analytics, no advertising, no trackers, and no AI training on anything you upload.',
  },
  {
    title: 'Git for Music',
    text: 'Software teams stopped emailing files years ago. Takes brings the same ideas to audio: versions with messages, branches for experiments, a history you can trust and a compare view to hear the difference.',
  },
  {
    title: 'Open Ecosystem',
    text: 'Your work is never locked in. Download your originals at any time, publish from your own machine with the desktop app or the takes command-line tool, and use the same API our own apps use.',
  },
] as const;

export function AboutPage() {
  usePageMeta(
    'About Us · Takes',
    'Why Takes exists: version control and private feedback for music creators, built on a promise not to harvest or train on their audio.',
  );

  return (
    <PageShell>
      <PageHeader eyebrow="About Us" title="Built for the people who make the music">
        <p>
          Takes is a private audio collaboration service for musicians, producers, engineers and
          labels.
        </p>
      </PageHeader>

      <Section title="Our Story">
        <p>
          Takes started in a studio hard drive full of files named “mix_final_v9”. Every session
          ended with a bounce, every bounce went out by chat or email, and the feedback came back as
          “the snare in the second verse”, without saying which of the nine mixes the listener had
          heard. Trying a different arrangement meant copying the whole folder and hoping nobody
          mixed up the copies.
        </p>
        <p>
          Developers solved this long ago with version control. So we built it for audio: a project
          per song, a branch for each idea, a numbered version for each bounce, and comments pinned
          to the second of the version they are about.
        </p>
        <p>
          At the same time, more and more upload services reserved the right to use what people
          upload to train AI models. We decided early that Takes would make the opposite promise and
          keep it: your music is stored to serve you, and only you decide who hears it.
        </p>
      </Section>

      <Section title="What we stand for">
        <ul className="grid gap-4 sm:grid-cols-3">
          {values.map((value) => (
            <li key={value.title} className={cardClass}>
              <h3 className="font-semibold text-zinc-900 dark:text-white">{value.title}</h3>
              <p className="mt-2 text-sm leading-6 text-zinc-600 dark:text-zinc-400">
                {value.text}
              </p>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Where we are going">
        <p>
          The first release covers projects, versions and private sharing. Team access, feedback
          threads and public releases on the artist’s own terms come next. The roadmap lists each
          step and how far along it is.
        </p>
        <div className="flex flex-wrap gap-3 pt-2">
          <Link to="/login" className={primaryLinkClass}>
            Create your account
          </Link>
          <Link to="/roadmap" className={secondaryLinkClass}>
            See the roadmap
          </Link>
        </div>
      </Section>
    </PageShell>
  );
}
