import { Link } from 'react-router';
import { ContactLink, LegalPage, LegalSection, legalLinkClass } from './legal-page';

export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Use"
      description="The terms for using Takes: your account, your content and the rights you keep, acceptable use, sharing, early access and how the agreement can end."
      summary={
        <p>
          In short: your music stays yours. You give us only the permission we need to store it,
          process it and play it to you and the people you share it with. Use Takes for your own
          work or work you have the right to share.
        </p>
      }
    >
      <LegalSection number={1} title="Agreement">
        <p>
          These terms apply when you use Takes: the website, the web app, the desktop app and the{' '}
          <code>takes</code> command-line tool. By creating an account or using a share link you
          agree to them. If you use Takes on behalf of a band, label or company, you confirm that
          you may accept these terms for it.
        </p>
      </LegalSection>

      <LegalSection number={2} title="Your account">
        <p>
          Keep your sign-in details to yourself and tell us through the <ContactLink /> if you think
          someone else has used your account. You are responsible for what happens under your
          account. You can end sessions on other devices from Settings.
        </p>
      </LegalSection>

      <LegalSection number={3} title="Your content and your rights">
        <p>
          You keep all rights in the audio, artwork, names, messages and comments you put into
          Takes. You give us a limited permission to store, copy, convert (for example into
          streaming renditions and waveforms) and transmit your content, only as needed to run Takes
          for you and for the people you share it with. This permission ends when you delete the
          content or your account.
        </p>
        <p>
          We do not use your content to train artificial intelligence, and we do not license it to
          anyone who would. We do not sell it, and we do not use it for advertising.
        </p>
      </LegalSection>

      <LegalSection number={4} title="Acceptable use">
        <p>You agree not to:</p>
        <ul>
          <li>
            upload or share material you do not have the right to share (see our{' '}
            <Link to="/copyright" className={legalLinkClass}>
              Copyright Policy
            </Link>
            );
          </li>
          <li>use Takes to harass anyone or to distribute malware or illegal material;</li>
          <li>
            try to get into accounts, projects or links that are not yours, or to overload or
            disrupt the service;
          </li>
          <li>
            collect content or data from Takes with automated tools, including to train AI models.
          </li>
        </ul>
      </LegalSection>

      <LegalSection number={5} title="Share links and comments">
        <p>
          Anyone who has a share link can play the version it opens and, if you allowed it, download
          it. Treat links like keys: send them only to people you trust, and set an expiry date or
          delete the link when it is no longer needed. People who comment through a link are
          responsible for what they write; you can remove comments on your own versions.
        </p>
      </LegalSection>

      <LegalSection number={6} title="Early access">
        <p>
          Takes is in early access and free of charge. Features may change, and there is an upload
          limit of 500 MB per file. Keep your own copies of important files: we work hard to keep
          your data safe, but we do not promise that the service will never be interrupted. If we
          introduce paid plans, we will tell you in advance, and nothing you stored will be held
          back if you choose not to pay.
        </p>
      </LegalSection>

      <LegalSection number={7} title="Ending the agreement">
        <p>
          You can stop using Takes at any time and ask us to delete your account. We may suspend or
          close accounts that break these terms, including repeat copyright infringers as described
          in the Copyright Policy. Where we can, we will warn you first and give you time to
          download your files.
        </p>
      </LegalSection>

      <LegalSection number={8} title="Liability">
        <p>
          Takes is provided as it is. To the extent the law allows, we are not liable for indirect
          losses, lost profits or lost data arising from your use of Takes. Nothing in these terms
          limits rights you have under consumer law that cannot be limited.
        </p>
      </LegalSection>

      <LegalSection number={9} title="Changes and contact">
        <p>
          We will update the date at the top when these terms change and tell account holders about
          significant changes before they take effect. How we handle personal data is described in
          our{' '}
          <Link to="/privacy" className={legalLinkClass}>
            Privacy Policy
          </Link>
          . Questions are welcome through the <ContactLink />.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
