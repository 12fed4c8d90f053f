/**
 * The admin module's public face: the condition the link modules add to opening a link by its
 * key (a disabled owner's links, when the admin did not keep them, answer as unknown ones), and
 * the one credentials other than sessions and desktop tokens add (a disabled account's are none).
 */
export { accountLive, ownerLinksLive } from './owner-links';
