import type { CollectionLink } from '@takes/contract';
import { useEffect, useRef, type Ref } from 'react';
import { pluralize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { CopiedStatus, CopyLinkField, useCopied } from '../share/copy-link-field';

/** The whole link address, as a listener opens it. */
export function linkAddress(link: Pick<CollectionLink, 'url'>): string {
  return `${window.location.origin}${link.url}`;
}

/** The links 'Share collection' just made, each with its address to copy and whether it was emailed. */
export function CreatedCollectionLinks({
  links,
  emailRequested,
  onClose,
  onCreateAnother,
}: {
  links: CollectionLink[];
  emailRequested: boolean;
  onClose: () => void;
  onCreateAnother: () => void;
}) {
  const [copiedId, setCopiedId] = useCopied<string>();
  const firstCopy = useRef<HTMLButtonElement>(null);
  const emailedCount = links.filter((link) => link.emailed).length;

  // The form that had focus is gone; copying a link is the next thing to do.
  useEffect(() => {
    firstCopy.current?.focus();
  }, []);

  return (
    <div className="space-y-4">
      <Alert tone="success">
        {links.length === 1 ? 'Link created.' : `${links.length} links created.`}
        {emailRequested && ` Emailed to ${pluralize(emailedCount, 'recipient', 'recipients')}.`}
      </Alert>
      <ul className="space-y-3">
        {links.map((link, index) => (
          <li key={link.id}>
            <CreatedLinkRow
              link={link}
              emailRequested={emailRequested}
              copied={copiedId === link.id}
              onCopied={() => setCopiedId(link.id)}
              copyRef={index === 0 ? firstCopy : undefined}
            />
          </li>
        ))}
      </ul>
      <CopiedStatus copied={copiedId !== null} />
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Close
        </button>
        <button type="button" className={primaryButton} onClick={onCreateAnother}>
          Create another
        </button>
      </div>
    </div>
  );
}

function CreatedLinkRow({
  link,
  emailRequested,
  copied,
  onCopied,
  copyRef,
}: {
  link: CollectionLink;
  emailRequested: boolean;
  copied: boolean;
  onCopied: () => void;
  copyRef: Ref<HTMLButtonElement> | undefined;
}) {
  const recipient = link.recipient;
  const label = recipient
    ? `${recipient.name}${recipient.email ? ` <${recipient.email}>` : ''}`
    : 'Share URL';

  return (
    <CopyLinkField
      label={label}
      url={linkAddress(link)}
      copied={copied}
      onCopied={onCopied}
      copyLabelSuffix={recipient ? `link for ${recipient.name}` : undefined}
      buttonRef={copyRef}
    >
      {emailRequested && recipient?.email && (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {link.emailed
            ? `Emailed to ${recipient.email}`
            : 'Not emailed: copy the link and send it yourself.'}
        </p>
      )}
    </CopyLinkField>
  );
}
