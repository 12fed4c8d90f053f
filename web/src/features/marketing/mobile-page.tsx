import { Link } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import { PageHeader, PageShell, Section, textLinkClass } from './page-parts';

export function MobilePage() {
  usePageMeta(
    'Mobile app · Takes',
    'The Takes iOS app is in progress as a TestFlight build. Until it is ready, Takes works in the browser on your phone.',
  );

  return (
    <PageShell>
      <PageHeader eyebrow="Mobile" title="Takes for iPhone">
        <p>
          An iOS build of Takes for TestFlight is in progress. There is no public TestFlight link
          yet.
        </p>
      </PageHeader>

      <Section title="Status">
        <p>
          The iOS TestFlight build is part of the MVP release on our{' '}
          <Link to="/roadmap" className={textLinkClass}>
            roadmap
          </Link>{' '}
          and is marked as in progress there. We will publish the invitation link on this page when
          the first build is ready for testers.
        </p>
      </Section>

      <Section title="Until then: Takes in your phone’s browser">
        <p>
          The web app works on phones. Open Takes in Safari or any other mobile browser to play your
          versions, read comments and create share links. On mobile the player picks the Standard
          (128 kbps) quality automatically to save data; you can switch to High or Original in the
          player. Share links open on phones too, so listeners can comment from wherever they hear
          your mix.
        </p>
      </Section>

      <Section title="Want to test it?">
        <p>
          If you would like to try the iOS build early,{' '}
          <Link to="/contact" className={textLinkClass}>
            send us a message
          </Link>{' '}
          and tell us how you would use it.
        </p>
      </Section>
    </PageShell>
  );
}
