/**
 * The sharing module's public face: share links and what a link opens, and what other kinds of
 * links (a collection's, a review's) do the same way: passwords, listen counts, the audio a link
 * may stream, and the HTTP habits of every route a link opens.
 */
export {
  isStartOfFile,
  linkAudioOf,
  newShareHash,
  SharingService,
  type LinkAudio,
  type OpenedLink,
} from './sharing.service';
export { LinkPasswords, readCookie } from './link-password';
export { countsThisHour, type Listener } from './listen-counts';
export { hideShareUrls, listenerOf, PROCESSING_RETRY_AFTER_SECONDS } from './share-http';
