import { useId } from 'react';
import { formatDate } from '../../lib/format';
import { useShareLinks, useUpdateLink } from './share-api';
import { linkPlaysText } from './link-plays';

/** Quick Share's list of this version's links, each with how often visitors played it. */
export function ShareLinksList({ versionId }: { versionId: string }) {
  const headingId = useId();
  const links = useShareLinks(versionId);
  const update = useUpdateLink(versionId);
  // Nothing to list (or it could not be read): the dialog is about creating one.
  if (!links.data || links.data.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 border-t border-zinc-200 pt-4 dark:border-zinc-800"
    >
      <h3 id={headingId} className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        Links to this version
      </h3>
      <ul className="mt-2 max-h-48 space-y-2 overflow-y-auto">
        {links.data.map((link) => (
          <li key={link.id} className="text-sm">
            <p className="font-medium break-words text-zinc-900 dark:text-zinc-100">{link.name}</p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              {linkPlaysText(link)} · created {formatDate(link.created_at)}
            </p>
            <label className="mt-1 inline-flex items-center gap-2 text-xs text-zinc-700 dark:text-zinc-300">
              <input
                type="checkbox"
                checked={link.allow_approval}
                disabled={update.isPending}
                onChange={(event) =>
                  update.mutate({ linkId: link.id, allow_approval: event.target.checked })
                }
                aria-label={`Allow approval on ${link.name}`}
                className="size-3.5 accent-indigo-600"
              />
              Allow approval
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}
