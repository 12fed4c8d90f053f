import { Link } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import { PageHeader, PageShell, Section, textLinkClass } from './page-parts';

const guides = [
  { id: 'uploading', title: 'Uploading and versions' },
  { id: 'branches', title: 'Branches' },
  { id: 'sharing', title: 'Share links and timestamped comments' },
  { id: 'desktop', title: 'The desktop app and the takes CLI' },
  { id: 'compare', title: 'A/B compare' },
] as const;

const codeClass =
  'block overflow-x-auto rounded-lg bg-zinc-900 px-4 py-3 font-mono text-sm text-zinc-100 dark:bg-zinc-800';

export function ResourcesPage() {
  usePageMeta(
    'Resources · Takes',
    'Guides for Takes: uploading and versions, branches, share links and timestamped comments, the desktop app and takes CLI, and A/B compare.',
  );

  return (
    <PageShell>
      <PageHeader eyebrow="Resources" title="Guides">
        <p>Short, practical guides to the parts of Takes you will use every day.</p>
      </PageHeader>

      <nav
        aria-label="Guides"
        className="mb-12 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
      >
        <ul className="space-y-1">
          {guides.map((guide) => (
            <li key={guide.id}>
              <a href={`#${guide.id}`} className={textLinkClass}>
                {guide.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <Section id="uploading" title="Uploading and versions">
        <p>
          Open Upload from the navigation bar after signing in. Drop an audio file (MP3, WAV, FLAC,
          AAC or M4A, up to 500 MB) or choose one. To start a new project, give it a name; it
          defaults to the file name. To add a version to an existing project, pick the project and
          branch and write a commit message that says what changed, for example “vocals up 1 dB, new
          reverb on the snare”. Tags such as <em>rough</em> or <em>for-label</em> help you find
          versions later.
        </p>
        <p>
          After the upload Takes processes the file: it keeps the original, makes the 320 kbps and
          128 kbps MP3 renditions and draws the waveform. The upload page shows each stage. Large
          WAV files take a few minutes on a slow connection; keep the tab open until it finishes.
        </p>
      </Section>

      <Section id="branches" title="Branches">
        <p>
          Every project starts with a branch called main. Create another branch from the project
          page when you want to try something without losing track of the mix you trust: an acoustic
          version, a different master, the mix engineer’s first pass. Versions on each branch are
          numbered on their own, so “radio edit, version 3” always means the same file.
        </p>
        <p>
          Our blog post{' '}
          <Link to="/blog/why-your-mixes-need-branches" className={textLinkClass}>
            Why your mixes need branches
          </Link>{' '}
          walks through a real session .
        </p>
      </Section>

      <Section id="sharing" title="Share links and timestamped comments">
        <p>
          On a version, choose Share. Give the link a name, an expiry date if you want one, and
          decide whether listeners may download the file. Copy the link and send it however you
          like. The person who opens it hears only that version, in the same player you use, and
          does not need an account.
        </p>
        <p>
          To comment, a listener types a display name once, clicks the waveform at the moment they
          mean and writes their note. You see each comment as a marker on that version’s waveform;
          clicking a comment plays from its timestamp. Ask specific questions when you send a link
          (“is the bass too loud in the last chorus?”) and you will get specific answers.
        </p>
      </Section>

      <Section id="desktop" title="The desktop app and the takes CLI">
        <p>
          The desktop app publishes bounces from your computer into repositories: each commit on a
          branch can carry a bounce, and the web app shows the history and plays every bounce.
          Installers for macOS, Windows and Linux are on the{' '}
          <Link to="/download" className={textLinkClass}>
            download page
          </Link>
          .
        </p>
        <p>
          The <code>takes</code> command-line tool does the same from a terminal or a script. Sign
          in once, create a repository, then commit with a bounce:
        </p>
        <code className={codeClass}>
          takes login
          <br />
          takes repo create &quot;Night Drive&quot;
          <br />
          takes commit --repo &quot;Night Drive&quot; -m &quot;Rough mix&quot; --bounce mix.wav
          <br />
          takes log --repo &quot;Night Drive&quot;
        </code>
        <p>
          Run <code>takes COMMAND --help</code> to see every option of a command.
        </p>
      </Section>

      <Section id="compare" title="A/B compare">
        <p>
          Open a branch of a repository and choose two bounces, A and B. Playback switches between
          them at the same position, so you hear only the difference. Set a region to loop the
          passage you care about, and adjust each side’s volume if one bounce is louder than the
          other: louder almost always sounds better, so match the levels before you judge.
        </p>
      </Section>
    </PageShell>
  );
}
