import { usePageMeta } from '../../lib/use-page-meta';
import { PageHeader, PageShell } from './page-parts';

type ItemStatus = 'done' | 'in-progress' | 'planned';

interface Phase {
  name: string;
  dates: string;
  summary: string;
  items: readonly { label: string; status: ItemStatus }[];
}

export const ROADMAP: readonly Phase[] = [
  {
    name: 'MVP release',
    dates: 'Q2-Q3 2025',
    summary: 'The core: keep every version of a track and share it privately.',
    items: [
      { label: 'Project and version management', status: 'done' },
      { label: 'Private link sharing', status: 'done' },
      { label: 'Timestamped feedback', status: 'in-progress' },
      { label: 'iOS TestFlight build', status: 'in-progress' },
    ],
  },
  {
    name: 'Phase 2: Enhanced Collaboration',
    dates: 'Q4 2025-Q1 2026',
    summary: 'Working on the same songs as a team, with a clear record of who did what.',
    items: [
      { label: 'Team access controls', status: 'planned' },
      { label: 'Feedback threads', status: 'planned' },
      { label: 'Notifications and activity logs', status: 'planned' },
      { label: 'Audio comparison', status: 'done' },
    ],
  },
  {
    name: 'Phase 3: Public Sharing',
    dates: 'Q2-Q4 2026',
    summary: 'Releasing to listeners, on the artist’s terms and without feeding AI.',
    items: [
      { label: 'Artist-controlled public releases', status: 'planned' },
      { label: 'AI-free discovery', status: 'planned' },
      { label: 'Playlists', status: 'planned' },
      { label: 'Artist-fan tools', status: 'planned' },
    ],
  },
];

const statusLabels: Record<ItemStatus, string> = {
  done: 'Done',
  'in-progress': 'In progress',
  planned: 'Planned',
};

const statusClasses: Record<ItemStatus, string> = {
  done: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-300',
  'in-progress': 'bg-amber-100 text-amber-800 dark:bg-amber-950/60 dark:text-amber-300',
  planned: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
};

export function RoadmapPage() {
  usePageMeta(
    'Roadmap · Takes',
    'What Takes has shipped and what comes next: the MVP, enhanced collaboration for teams, and artist-controlled public sharing.',
  );

  return (
    <PageShell>
      <PageHeader eyebrow="Roadmap" title="Where Takes is heading">
        <p>
          Three phases, in order. Each item shows whether it is done, in progress or still planned.
        </p>
      </PageHeader>

      <ol className="space-y-10">
        {ROADMAP.map((phase) => (
          <li
            key={phase.name}
            className="rounded-xl border border-zinc-200 p-6 dark:border-zinc-800"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 className="text-xl font-semibold text-zinc-900 dark:text-white">{phase.name}</h2>
              <p className="text-sm font-medium text-zinc-500 dark:text-zinc-400">{phase.dates}</p>
            </div>
            <p className="mt-2 text-zinc-600 dark:text-zinc-400">{phase.summary}</p>
            <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800">
              {phase.items.map((item) => (
                <li key={item.label} className="flex items-center justify-between gap-4 py-3">
                  <span className="text-zinc-800 dark:text-zinc-200">{item.label}</span>
                  <span
                    className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ${statusClasses[item.status]}`}
                  >
                    {statusLabels[item.status]}
                  </span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </PageShell>
  );
}
