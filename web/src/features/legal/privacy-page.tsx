import { Link } from 'react-router';
import { ContactLink, LegalPage, LegalSection, legalLinkClass } from './legal-page';

export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      description="What Takes stores about you and your music, why, for how long, and the promise behind it: no analytics, no ads, no trackers, no AI training, nothing sent to third parties."
      summary={
        <p>
          In short: Takes stores what it needs to run your account and your music, and nothing more.
          Nothing is sold, shared with advertisers or used to train AI. The site has no analytics,
          no ads and no trackers, and it loads nothing from other companies’ servers.
        </p>
      }
    >
      <LegalSection number={1} title="What we store">
        <p>When you use Takes, we store:</p>
        <ul>
          <li>
            <strong>Your account:</strong> your email address, your display name and, if you add
            one, your avatar image. If you sign in with a password, we store only a salted hash of
            it, never the password itself.
          </li>
          <li>
            <strong>Your audio:</strong> the original files you upload or publish, the renditions we
            make from them for streaming (320 kbps and 128 kbps MP3), their waveforms and loudness
            measurements, and cover images you add to repositories.
          </li>
          <li>
            <strong>Your work:</strong> projects, branches, versions, repositories, commits and
            bounces, with the names, messages and tags you give them.
          </li>
          <li>
            <strong>Sharing:</strong> the share links you create (name, expiry date, download
            setting) and the comments left on your versions, with the display name the commenter
            typed and the timestamp in the track.
          </li>
          <li>
            <strong>Contact messages:</strong> what you send through the <ContactLink />: your name,
            email, subject, message, and the role or company details you choose to give.
          </li>
          <li>
            <strong>Sessions:</strong> a session cookie that keeps you signed in, and for each
            session its expiry time, the IP address and the browser’s user agent it was created
            from, so you can see and end your other sessions in Settings.
          </li>
        </ul>
      </LegalSection>

      <LegalSection number={2} title="Why we store it">
        <p>
          Only to provide Takes to you: to sign you in, keep and play your audio, show it to the
          people you share it with, and answer your messages. We do not build profiles of you, and
          we do not look at your music except when you ask us to help with a problem.
        </p>
      </LegalSection>

      <LegalSection number={3} title="What we never do">
        <ul>
          <li>
            We never use your audio, or anything else you store, to train AI models, and we never
            let anyone else do so.
          </li>
          <li>
            We never sell or rent your data, and we never give it to advertisers or data brokers.
          </li>
          <li>
            We run no analytics, no advertising and no tracking scripts. The pages load no web
            fonts, scripts or images from content delivery networks or other companies’ servers.
          </li>
          <li>
            Nothing is sent to third parties. The exceptions are ones you choose yourself: if you
            sign in with Google or Apple, that company confirms who you are; and sign-in codes are
            delivered to your inbox by email.
          </li>
        </ul>
      </LegalSection>

      <LegalSection number={4} title="Who can see your music">
        <p>
          Projects are private by default. Only you can see them, and people you send a share link
          to can hear the one version that link opens, until it expires or you delete it. Comments
          left through a link are visible to you and to others who open that link.
        </p>
      </LegalSection>

      <LegalSection number={5} title="How long we keep it">
        <p>
          As long as your account exists. When you delete a project, its versions, audio files and
          comments are deleted with it, and its stored audio is removed. If you want your whole
          account and everything in it deleted, ask us through the <ContactLink /> and we will do
          it.
        </p>
      </LegalSection>

      <LegalSection number={6} title="Cookies and local storage">
        <p>
          Takes sets one essential session cookie, and remembers your light or dark theme choice in
          your browser’s local storage. The details are in our{' '}
          <Link to="/cookies" className={legalLinkClass}>
            Cookie Policy
          </Link>
          .
        </p>
      </LegalSection>

      <LegalSection number={7} title="Your rights">
        <p>
          You can see and change your account details in your profile and settings, download your
          original files at any time, and ask us for a copy of everything we hold about you, for
          corrections, or for deletion. Send such requests through the <ContactLink />.
        </p>
      </LegalSection>

      <LegalSection number={8} title="Changes and contact">
        <p>
          If we change this policy, we will update the date at the top and, for significant changes,
          tell account holders before the change takes effect. Questions about privacy are welcome
          through the <ContactLink />.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
