import { Link } from 'react-router';
import { ContactLink, LegalPage, LegalSection, legalLinkClass } from './legal-page';

export function CopyrightPage() {
  return (
    <LegalPage
      title="Copyright Policy"
      description="How Takes handles copyright: who owns uploaded music, how to report infringement, counter-notifications, and the repeat-infringer rule."
      summary={
        <p>
          In short: you own what you upload, and so does everyone else. If someone shares your work
          on Takes without permission, tell us and we will act. Accounts that infringe repeatedly
          are closed.
        </p>
      }
    >
      <LegalSection number={1} title="Introduction">
        <p>
          Takes respects the rights of musicians, songwriters, producers and everyone else who owns
          creative work, and expects its users to do the same. This policy explains how we respond
          to reports that material on Takes infringes someone’s copyright. It works together with
          our{' '}
          <Link to="/terms" className={legalLinkClass}>
            Terms of Use
          </Link>
          .
        </p>
      </LegalSection>

      <LegalSection number={2} title="User content and ownership">
        <p>
          You keep ownership of everything you upload. Takes claims no rights in your music beyond
          the limited permission, described in the Terms of Use, to store and play it for you and
          the people you share it with. By uploading, you confirm that you own the material or have
          permission to use and share it in the way you do, including samples, stems and mixes of
          other people’s work.
        </p>
      </LegalSection>

      <LegalSection number={3} title="Reporting infringement">
        <p>
          If you believe material on Takes infringes a copyright you own or represent, send us a
          notice through the <ContactLink /> with the subject “Copyright notice”. Please include:
        </p>
        <ol>
          <li>your name and how to reach you;</li>
          <li>the work you believe is infringed;</li>
          <li>the share link or other location of the material on Takes;</li>
          <li>
            a statement that you believe in good faith that the use is not authorised by the owner,
            its agent or the law;
          </li>
          <li>
            a statement that the information in your notice is accurate and that you are the owner
            or authorised to act for the owner.
          </li>
        </ol>
        <p>
          Because content on Takes is private, a share link is usually the only way you will have
          seen it; include it so we can find the material. We may remove or disable access to the
          material and will tell the account holder that we did.
        </p>
      </LegalSection>

      <LegalSection number={4} title="Counter-notification">
        <p>
          If material you uploaded was removed and you believe that was a mistake, or that you had
          the right to use it, you may send a counter-notification through the <ContactLink />. Name
          the removed material, explain why you believe it was removed in error, and confirm that
          the information is accurate.
        </p>
        <p>
          We pass the counter-notification to the person who reported the material. If we receive no
          notice within 10 business days that they have started a court action to stop the
          infringement, the material may be restored.
        </p>
      </LegalSection>

      <LegalSection number={5} title="Repeat infringers">
        <p>
          A repeat infringer is a user who has been notified of infringing activity more than twice
          and/or has had material removed more than twice. The accounts of repeat infringers are
          terminated.
        </p>
      </LegalSection>

      <LegalSection number={6} title="No legal advice">
        <p>
          This policy explains how Takes handles copyright reports; it is not legal advice. If you
          are unsure whether your use of someone else’s work is allowed, or whether material
          infringes your rights, ask a qualified lawyer before sending a notice or
          counter-notification.
        </p>
      </LegalSection>

      <LegalSection number={7} title="Changes to this policy">
        <p>
          We may update this policy as the law or the service changes. The date at the top shows
          when it last changed.
        </p>
      </LegalSection>

      <LegalSection number={8} title="Contact">
        <p>
          Send copyright notices, counter-notifications and questions about this policy through the{' '}
          <ContactLink />.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
