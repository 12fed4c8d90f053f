import { Link } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import { PageHeader, PageShell, primaryLinkClass, Section, textLinkClass } from './page-parts';

const columns = [
  'Takes',
  'Shared drives',
  'File-transfer services',
  'Streaming platforms’ private links',
] as const;

/** One row per question a creator asks; each cell is a short, honest answer. */
const comparison: readonly {
  question: string;
  answers: readonly [string, string, string, string];
}[] = [
  {
    question: 'Versions of the same track kept together',
    answers: [
      'Yes: numbered versions with a message and tags',
      'Partly: file revision history, no messages',
      'No: each transfer is a separate upload',
      'No: a new upload replaces or sits beside the old one',
    ],
  },
  {
    question: 'Branches to try an alternative mix',
    answers: ['Yes', 'No: copies of folders', 'No', 'No'],
  },
  {
    question: 'Play in the browser with a waveform',
    answers: [
      'Yes, with quality choice',
      'Basic preview player',
      'Some services, basic preview',
      'Yes',
    ],
  },
  {
    question: 'Comments pinned to a moment in the track',
    answers: ['Yes, on each version', 'No: comments on the whole file', 'No', 'Some platforms'],
  },
  {
    question: 'Listeners comment without an account',
    answers: ['Yes, with a display name', 'No', 'No', 'No'],
  },
  {
    question: 'Link expiry and download control',
    answers: [
      'Yes, per link',
      'Depends on the plan',
      'Expiry yes, downloading is the point',
      'Download settings per track',
    ],
  },
  {
    question: 'A/B compare two mixes',
    answers: ['Yes, switching at the same position', 'No', 'No', 'No'],
  },
  {
    question: 'Original lossless file kept',
    answers: ['Yes, plus MP3 renditions for streaming', 'Yes', 'Yes', 'Often re-encoded'],
  },
  {
    question: 'Your uploads used to train AI',
    answers: [
      'Never',
      'Read the provider’s terms',
      'Read the provider’s terms',
      'Read the provider’s terms',
    ],
  },
  {
    question: 'Ads, analytics or third-party trackers',
    answers: ['None', 'Depends on the provider', 'Often', 'Often'],
  },
  {
    question: 'Reaching a public audience',
    answers: ['Not yet (Phase 3 on the roadmap)', 'No', 'No', 'Yes, this is what they are for'],
  },
  {
    question: 'Storing any kind of file',
    answers: ['No: audio only (MP3, WAV, FLAC, AAC, M4A)', 'Yes', 'Yes', 'No: audio only'],
  },
];

export function FeaturesPage() {
  usePageMeta(
    'Features · Takes',
    'Version control, private sharing, timestamped feedback, A/B compare and desktop publishing, and an honest comparison of Takes with shared drives, file transfers and streaming links.',
  );

  return (
    <PageShell wide>
      <div className="max-w-3xl">
        <PageHeader eyebrow="Features" title="What Takes does, and how it compares">
          <p>
            Takes does one job: it keeps the versions of your tracks in order and gets them in front
            of the right ears, privately. Here is what that means in practice.
          </p>
        </PageHeader>

        <Section id="version-control" title="Version Control">
          <p>
            A project holds one song or piece. Inside it, branches hold lines of work: main for the
            mix you are committed to, and as many others as you like for the radio edit, the
            stripped-down version or the mix engineer’s pass. Every upload to a branch becomes the
            next numbered version, with a message saying what changed and tags for finding it later.
          </p>
          <p>
            Uploads accept MP3, WAV, FLAC, AAC and M4A files up to 500 MB. Takes keeps your original
            file and prepares High (320 kbps) and Standard (128 kbps) MP3 renditions and a waveform,
            so playback starts quickly on any connection.
          </p>
        </Section>

        <Section id="private-sharing" title="Private Sharing">
          <p>
            A share link opens one version of one track. You name it, optionally give it an expiry
            date, and decide whether the listener may download the file. Anyone without the link
            sees nothing: projects are private by default and there is no public profile or search
            for other people’s music.
          </p>
        </Section>

        <Section id="feedback-collection" title="Feedback Collection">
          <p>
            People who open a share link listen in the same waveform player you use. They give a
            display name, click a point on the waveform and write a comment, which is stored with
            that timestamp. You see the markers on the waveform of that version, and a click on a
            comment plays the track from that moment.
          </p>
        </Section>

        <Section id="repositories" title="Repositories, commits and bounces">
          <p>
            If you work in a DAW all day, the Takes desktop app and the <code>takes</code>{' '}
            command-line tool publish straight from your machine: a repository per project, commits
            on branches, and a bounce attached to each commit. The web app shows the history, plays
            every bounce and lists the most recent bounces across all repositories.
          </p>
        </Section>

        <Section id="compare" title="A/B compare">
          <p>
            Pick two bounces on a branch and switch between them at the same position in the track.
            Loop a region, set each side’s volume and hear exactly what the last change did.
          </p>
        </Section>
      </div>

      <section aria-labelledby="comparison-heading" className="mt-16">
        <h2
          id="comparison-heading"
          className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-white"
        >
          Takes compared with the usual alternatives
        </h2>
        <p className="mt-3 max-w-3xl text-zinc-600 dark:text-zinc-400">
          Most of us share music through a shared drive, a file-transfer service or a private link
          on a streaming platform. Each is good at something; this table shows where they differ.
          Where the answer depends on the provider, we say so instead of guessing.
        </p>
        <div className="mt-6 overflow-x-auto rounded-xl border border-zinc-200 dark:border-zinc-800">
          <table className="w-full min-w-[48rem] text-left text-sm">
            <caption className="sr-only">
              Takes compared with shared drives, file-transfer services and private links on
              streaming platforms
            </caption>
            <thead className="bg-zinc-50 text-zinc-900 dark:bg-zinc-900 dark:text-white">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">Question</span>
                </th>
                {columns.map((column) => (
                  <th key={column} scope="col" className="px-4 py-3 font-semibold">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {comparison.map((row) => (
                <tr key={row.question}>
                  <th
                    scope="row"
                    className="px-4 py-3 font-medium text-zinc-900 dark:text-zinc-100"
                  >
                    {row.question}
                  </th>
                  {row.answers.map((answer, index) => (
                    <td
                      key={columns[index]}
                      className={`px-4 py-3 ${
                        index === 0
                          ? 'font-medium text-indigo-700 dark:text-indigo-300'
                          : 'text-zinc-600 dark:text-zinc-400'
                      }`}
                    >
                      {answer}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="mt-4 text-sm text-zinc-500 dark:text-zinc-400">
          Takes cannot replace a streaming platform for releasing music today; public releases are
          planned on the{' '}
          <Link to="/roadmap" className={textLinkClass}>
            roadmap
          </Link>
          .
        </p>
        <Link to="/login" className={`${primaryLinkClass} mt-8`}>
          Get Started
        </Link>
      </section>
    </PageShell>
  );
}
