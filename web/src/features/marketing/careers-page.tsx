import { Link } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import { PageHeader, PageShell, primaryLinkClass, Section } from './page-parts';

const hiringSteps = [
  {
    title: 'Write to us',
    text: 'Use the contact form with the subject “Careers”. Tell us what you would like to work on and link to something you have made: code, a mix, a design, a piece of writing.',
  },
  {
    title: 'A first conversation',
    text: 'A 30-minute video call with one of the founders about your work, ours, and whether they fit. You can ask anything, including about pay.',
  },
  {
    title: 'A paid practical task',
    text: 'A small, real piece of work that takes no more than a day, paid at our day rate. No unpaid take-home tests and no trick puzzles.',
  },
  {
    title: 'Meet the team and decide',
    text: 'You meet the people you would work with, then we make a written offer or explain our decision, within a week of the task.',
  },
] as const;

export function CareersPage() {
  usePageMeta(
    'Careers · Takes',
    'Work on Takes, private version control for music. How we hire, in four steps, and how to get in touch.',
  );

  return (
    <PageShell>
      <PageHeader eyebrow="Careers" title="Join Our Team">
        <p>
          Takes is a small team of engineers and musicians building tools we use on our own records.
        </p>
      </PageHeader>

      <Section title="What working here is like">
        <p>
          We work remotely and write things down: decisions, designs and the reasons behind them.
          The people who use Takes are musicians, producers, engineers and labels, and we talk with
          them every week. Knowing your way around a DAW helps in any role here; it is not required.
        </p>
        <p>
          We have no open positions listed at the moment. We still read every note from people who
          would like to work on audio software that respects its users, and we write back.
        </p>
      </Section>

      <Section title="How we hire">
        <ol className="space-y-4">
          {hiringSteps.map((step, index) => (
            <li key={step.title} className="flex gap-4">
              <span
                aria-hidden="true"
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold text-zinc-900 dark:text-white">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-1 text-zinc-600 dark:text-zinc-400">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>

      <div className="mt-12">
        <Link to="/contact" className={primaryLinkClass}>
          Contact us about working at Takes
        </Link>
      </div>
    </PageShell>
  );
}
