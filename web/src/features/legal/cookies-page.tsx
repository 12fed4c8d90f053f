import { Link } from 'react-router';
import { ContactLink, LegalPage, LegalSection, legalLinkClass } from './legal-page';

export function CookiesPage() {
  return (
    <LegalPage
      title="Cookie Policy"
      description="Takes sets one essential session cookie and keeps your theme choice in local storage. No analytics cookies, no tracking pixels, no flash cookies."
      summary={
        <p>
          In short: Takes sets one essential cookie, the session cookie that keeps you signed in,
          and remembers your light or dark theme in your browser’s local storage. There are no
          analytics cookies, no advertising cookies, no tracking pixels and no flash cookies.
        </p>
      }
    >
      <LegalSection number={1} title="Essential cookies">
        <p>
          When you sign in, Takes sets a session cookie (its name starts with <code>takes</code>).
          It identifies your signed-in session so that each page knows it is you. It is sent only to
          Takes, cannot be read by scripts on the page, and is removed when you sign out or the
          session expires. Without it you cannot stay signed in, so it cannot be switched off while
          you use an account. While you sign in with Google or Apple, a second cookie holds the
          state of that sign-in for at most five minutes, so the sign-in cannot be hijacked; it is
          just as essential and is deleted when you return. Visitors who only open a share link or
          read these pages get no session cookie.
        </p>
      </LegalSection>

      <LegalSection number={2} title="Performance and functionality cookies">
        <p>
          Takes sets no performance or functionality cookies. The few preferences the app remembers
          are kept in your browser’s local storage, never sent to us with each request:
        </p>
        <ul>
          <li>your theme choice, light or dark;</li>
          <li>the player’s volume and whether it is muted;</li>
          <li>the display name you typed when commenting through a share link.</li>
        </ul>
        <p>You can delete them at any time by clearing this site’s data in your browser.</p>
      </LegalSection>

      <LegalSection number={3} title="Analytics and customization cookies">
        <p>
          None. Takes does not measure visitors with analytics tools, does not personalise what you
          see based on your behaviour, and does not let any third party set cookies through its
          pages.
        </p>
      </LegalSection>

      <LegalSection number={4} title="Tracking pixels">
        <p>
          None. Our pages and emails contain no tracking pixels, web beacons or similar invisible
          images, and the pages load nothing from other companies’ servers.
        </p>
      </LegalSection>

      <LegalSection number={5} title="Controlling cookies in your browser">
        <p>
          Every browser lets you see, block and delete cookies and site data, usually under privacy
          or site settings. If you block the session cookie, you can still read the public pages and
          open share links, but you will not be able to stay signed in.
        </p>
      </LegalSection>

      <LegalSection number={6} title="Flash cookies">
        <p>
          None. Takes uses no Flash and no “flash cookies” (local shared objects), or any other
          storage that tries to survive when you clear your browser data.
        </p>
      </LegalSection>

      <LegalSection number={7} title="Why so few">
        <p>
          Takes is funded by the people who use it, not by data about them, so there is nothing to
          measure or sell. Our{' '}
          <Link to="/privacy" className={legalLinkClass}>
            Privacy Policy
          </Link>{' '}
          lists everything we store.
        </p>
      </LegalSection>

      <LegalSection number={8} title="Updates to this policy">
        <p>
          If Takes ever needs another cookie, we will list it here before it is set and update the
          date at the top of this page.
        </p>
      </LegalSection>

      <LegalSection number={9} title="Contact">
        <p>
          Questions about cookies or local storage are welcome through the <ContactLink />.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
