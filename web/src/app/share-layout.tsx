import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { FocusedFrame, type FrameLinkProps } from './focused-frame';

/** A link out of the share entry: a plain anchor, so the full app loads the address afresh. */
function PlainLink({ to, className, children }: FrameLinkProps) {
  return (
    <a href={to} className={className}>
      {children}
    </a>
  );
}

/**
 * The frame of the share entry (share.html, what a share link opens on its first visit): the
 * same focused page as the app's layout gives `/share/:hash`, without the site's navbar, footer
 * or player bar, so the listener downloads only the share page's code. Anything outside
 * `/share/:hash` belongs to the full app, so its links load the page afresh (plain anchors).
 */
export function ShareLayout() {
  return <FocusedFrame link={PlainLink} />;
}

/** Where this document was first loaded: the share page the server answered with share.html. */
const firstPath = typeof window === 'undefined' ? '' : window.location.pathname;

/**
 * Any address but a share page's, reached from within the share entry: the full app serves it,
 * so the browser loads it as a new document. The document's own first address never lands here
 * (the server sends share.html only for `/share/:hash`); if it did, it goes to the app's
 * not-found page rather than reloading itself.
 */
export function LeaveShareEntry() {
  const location = useLocation();
  useEffect(() => {
    const target = `${location.pathname}${location.search}${location.hash}`;
    window.location.replace(location.pathname === firstPath ? '/404' : target);
  }, [location]);
  return null;
}
