import { z } from 'zod';
import { binary, defineEndpoint, empty } from '../endpoint';
import {
  collectionLinkReceiptBodySchema,
  collectionLinksResponseSchema,
  collectionZipSchema,
  createCollectionLinkBodySchema,
  sharedCollectionSchema,
  unlockCollectionLinkBodySchema,
} from '../collection-links';
import { commentSchema, visitorCommentBodySchema } from '../sharing';
import { AUDIO_MEDIA_TYPES, IMAGE_MEDIA_TYPES, notModified, shareLink, signedIn } from './shared';
import { DEMO_MESSAGES } from '../demo';
import { AUDIO_QUALITIES } from '../audio-qualities';

const tag = 'collections';
const auth = signedIn;
const id = z.string().min(1).max(64);

export const createCollectionLinks = defineEndpoint({
  name: 'createCollectionLinks',
  method: 'POST',
  path: '/api/collections/:id/links',
  summary: 'Share a collection: one link, or one link per recipient (each with its own key)',
  tag,
  auth,
  demo: { refused: DEMO_MESSAGES.shareLinks },
  params: z.object({ id }),
  body: createCollectionLinkBodySchema,
  responses: { 201: collectionLinksResponseSchema },
  errors: [400, 401, 403, 404],
});

export const listCollectionLinks = defineEndpoint({
  name: 'listCollectionLinks',
  method: 'GET',
  path: '/api/collections/:id/links',
  summary: "A collection's share links, newest first (revoked ones too)",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id }),
  responses: { 200: collectionLinksResponseSchema },
  errors: [400, 401, 403, 404],
});

export const revokeCollectionLink = defineEndpoint({
  name: 'revokeCollectionLink',
  method: 'DELETE',
  path: '/api/collections/:id/links/:linkId',
  summary: 'Revoke one share link of a collection',
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id, linkId: id }),
  responses: { 204: empty('Revoked.') },
  errors: [400, 401, 403, 404],
});

const hash = z.string().min(1).max(64);

export const openCollectionLink = defineEndpoint({
  name: 'openCollectionLink',
  method: 'GET',
  path: '/api/collection-links/:hash',
  summary: 'A shared collection: its name, description and the items its owner may still play',
  description:
    "401 'This link needs a password' (and nothing else) until the link's unlock cookie is sent.",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  responses: { 200: sharedCollectionSchema },
  errors: [400, 401, 404, 410, 429],
});

export const getCollectionLinkCover = defineEndpoint({
  name: 'getCollectionLinkCover',
  method: 'GET',
  path: '/api/collection-links/:hash/cover',
  summary: "A shared collection's cover image",
  description:
    "401 'This link needs a password' until the link's unlock cookie is sent; 404 when the collection has no cover.",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  responses: {
    200: binary(IMAGE_MEDIA_TYPES, 'The cover, typed by its content.', { ranges: true }),
    304: notModified,
  },
  errors: [400, 401, 404, 410, 429],
});

export const streamCollectionLinkItem = defineEndpoint({
  name: 'streamCollectionLinkItem',
  method: 'GET',
  path: '/api/collection-links/:hash/items/:itemId/stream',
  summary: 'Play an item of a shared collection',
  description:
    'Without download rights only renditions stream. 409 with Retry-After while the standard one is still being made.',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash, itemId: id }),
  query: z.object({ quality: z.enum(AUDIO_QUALITIES).default('standard') }),
  responses: {
    200: binary(AUDIO_MEDIA_TYPES, 'The audio.', { ranges: true }),
    304: notModified,
  },
  errors: [400, 401, 404, 409, 410, 429],
});

export const unlockCollectionLink = defineEndpoint({
  name: 'unlockCollectionLink',
  method: 'POST',
  path: '/api/collection-links/:hash/unlock',
  summary: "Unlock a password-protected collection link (sets that link's cookie)",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  body: unlockCollectionLinkBodySchema,
  responses: { 204: empty('Unlocked: an HttpOnly cookie for this link is set.') },
  errors: [400, 401, 404, 410, 429],
});

export const recordCollectionLinkReceipt = defineEndpoint({
  name: 'recordCollectionLinkReceipt',
  method: 'POST',
  path: '/api/collection-links/:hash/items/:itemId/receipts',
  summary: 'Count a play, a 30-second listen, a 90% listen or a download of a shared item',
  description: 'Counts only: nothing about the listener (address, user agent, cookie) is kept.',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash, itemId: id }),
  body: collectionLinkReceiptBodySchema,
  responses: { 204: empty('Counted.') },
  errors: [400, 401, 404, 410, 429],
});

export const downloadCollectionLinkItem = defineEndpoint({
  name: 'downloadCollectionLinkItem',
  method: 'GET',
  path: '/api/collection-links/:hash/items/:itemId/download',
  summary: "Download a shared item's original file (when the link allows downloads)",
  description: 'Counted as a download in the link’s listen receipts.',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash, itemId: id }),
  responses: {
    200: binary(AUDIO_MEDIA_TYPES, 'The original file.', { ranges: true, attachment: true }),
    304: notModified,
  },
  errors: [400, 401, 403, 404, 410, 429],
});

export const listCollectionLinkItemComments = defineEndpoint({
  name: 'listCollectionLinkItemComments',
  method: 'GET',
  path: '/api/collection-links/:hash/items/:itemId/comments',
  summary: 'The comments a collection link shows its listener on one item',
  description:
    'Only the threads started or joined through this link: per-recipient links never show each other’s comments.',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash, itemId: id }),
  responses: { 200: z.array(commentSchema) },
  errors: [400, 401, 404, 409, 410, 429],
});

export const addCollectionLinkItemComment = defineEndpoint({
  name: 'addCollectionLinkItemComment',
  method: 'POST',
  path: '/api/collection-links/:hash/items/:itemId/comments',
  summary: 'Comment on one item through a collection link',
  description:
    'A signed-in listener comments under their account (the session cookie is read when sent); anyone else gives a visitor_name.',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash, itemId: id }),
  body: visitorCommentBodySchema,
  responses: { 201: commentSchema },
  errors: [400, 401, 404, 409, 410, 429],
});

export const startCollectionLinkZip = defineEndpoint({
  name: 'startCollectionLinkZip',
  method: 'POST',
  path: '/api/collection-links/:hash/zip',
  summary: "'Download all': start building a zip of a shared collection's originals",
  description:
    'When the link allows downloads (403 otherwise). Built in the background: poll the zip for progress. A zip of the same items still fresh (or being built) is handed out again; a new build is limited per link and address (429).',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  responses: { 202: collectionZipSchema },
  errors: [400, 401, 403, 404, 409, 410, 429],
});

export const getCollectionLinkZip = defineEndpoint({
  name: 'getCollectionLinkZip',
  method: 'GET',
  path: '/api/collection-links/:hash/zip/:zipId',
  summary: "A shared collection's zip: its status and how many items are in it so far",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash, zipId: id }),
  responses: { 200: collectionZipSchema },
  errors: [400, 401, 403, 404, 410, 429],
});

export const downloadCollectionLinkZip = defineEndpoint({
  name: 'downloadCollectionLinkZip',
  method: 'GET',
  path: '/api/collection-links/:hash/zip/:zipId/file',
  summary: "Download a shared collection's ready zip, named after the collection",
  description:
    'Counted as one download of each item it holds in the link’s listen receipts (a request for a later part of the file is not counted again). 409 until ready, 410 after a day.',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash, zipId: id }),
  responses: {
    200: binary(['application/zip'], 'The zip.', { ranges: true, attachment: true }),
    304: notModified,
  },
  errors: [400, 401, 403, 404, 409, 410, 429],
});
