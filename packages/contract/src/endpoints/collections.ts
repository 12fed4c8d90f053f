import { z } from 'zod';
import { binary, defineEndpoint, empty, multipart } from '../endpoint';
import {
  addCollectionItemBodySchema,
  collectionItemSchema,
  collectionSchema,
  collectionsResponseSchema,
  createCollectionBodySchema,
  reorderCollectionBodySchema,
  updateCollectionBodySchema,
} from '../collections';
import { IMAGE_MEDIA_TYPES, notModified, signedIn } from './shared';

const tag = 'collections';
const auth = signedIn;
const id = z.string().min(1).max(64);
const collectionParams = z.object({ id });

export const listCollections = defineEndpoint({
  name: 'listCollections',
  method: 'GET',
  path: '/api/collections',
  summary:
    "The caller's own collections and those they are a member of (with their role), most recently updated first",
  tag,
  auth,
  demo: 'allowed',
  responses: { 200: collectionsResponseSchema },
  errors: [401],
});

export const createCollection = defineEndpoint({
  name: 'createCollection',
  method: 'POST',
  path: '/api/collections',
  summary: 'Create a collection',
  tag,
  auth,
  demo: 'allowed',
  body: createCollectionBodySchema,
  responses: { 201: collectionSchema },
  errors: [400, 401],
});

export const getCollection = defineEndpoint({
  name: 'getCollection',
  method: 'GET',
  path: '/api/collections/:id',
  summary: 'A collection the caller owns or is a member of, with its items in order',
  description:
    'Each item is resolved for the caller: one from a project they may not read is unavailable, with nothing of that project.',
  tag,
  auth,
  demo: 'allowed',
  params: collectionParams,
  responses: { 200: collectionSchema },
  errors: [400, 401, 404],
});

export const updateCollection = defineEndpoint({
  name: 'updateCollection',
  method: 'PATCH',
  path: '/api/collections/:id',
  summary: "Change a collection's name or description",
  tag,
  auth,
  demo: 'allowed',
  params: collectionParams,
  body: updateCollectionBodySchema,
  responses: { 200: collectionSchema },
  errors: [400, 401, 403, 404],
});

export const deleteCollection = defineEndpoint({
  name: 'deleteCollection',
  method: 'DELETE',
  path: '/api/collections/:id',
  summary: 'Delete a collection (the versions in it stay)',
  tag,
  auth,
  demo: 'allowed',
  params: collectionParams,
  responses: { 204: empty('Deleted.') },
  errors: [400, 401, 403, 404],
});

export const addCollectionItem = defineEndpoint({
  name: 'addCollectionItem',
  method: 'POST',
  path: '/api/collections/:id/items',
  summary: 'Add a version, or the latest version of a branch, at the end of a collection',
  tag,
  auth,
  demo: 'allowed',
  params: collectionParams,
  body: addCollectionItemBodySchema,
  responses: { 201: collectionItemSchema },
  errors: [400, 401, 403, 404, 409],
});

export const removeCollectionItem = defineEndpoint({
  name: 'removeCollectionItem',
  method: 'DELETE',
  path: '/api/collections/:id/items/:itemId',
  summary: 'Remove an item from a collection',
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id, itemId: id }),
  responses: { 204: empty('Removed.') },
  errors: [400, 401, 403, 404],
});

export const reorderCollection = defineEndpoint({
  name: 'reorderCollection',
  method: 'PUT',
  path: '/api/collections/:id/order',
  summary: "Put a collection's items in a new order (every current item id, once)",
  tag,
  auth,
  demo: 'allowed',
  params: collectionParams,
  body: reorderCollectionBodySchema,
  responses: { 200: collectionSchema },
  errors: [400, 401, 403, 404, 409],
});

export const setCollectionCover = defineEndpoint({
  name: 'setCollectionCover',
  method: 'PUT',
  path: '/api/collections/:id/cover',
  summary: "Set or replace a collection's cover image (PNG, JPEG or WebP, at most 5 MB)",
  description: 'The image is recognised by its content, never by its name or declared type.',
  tag,
  auth,
  demo: 'allowed',
  params: collectionParams,
  body: multipart(z.object({}), { cover_image: 'A PNG, JPEG or WebP image, at most 5 MB.' }, [
    'cover_image',
  ]),
  responses: { 200: collectionSchema },
  errors: [400, 401, 403, 404, 406, 413, 415],
});

export const deleteCollectionCover = defineEndpoint({
  name: 'deleteCollectionCover',
  method: 'DELETE',
  path: '/api/collections/:id/cover',
  summary: "Remove a collection's cover image",
  tag,
  auth,
  demo: 'allowed',
  params: collectionParams,
  responses: { 204: empty('Removed (or there was none).') },
  errors: [400, 401, 403, 404],
});

export const getCollectionCover = defineEndpoint({
  name: 'getCollectionCover',
  method: 'GET',
  path: '/api/collections/:id/cover',
  summary: "One of the caller's collections' cover image",
  tag,
  auth,
  demo: 'allowed',
  params: collectionParams,
  responses: {
    200: binary(IMAGE_MEDIA_TYPES, 'The cover, typed by its content.', { ranges: true }),
    304: notModified,
  },
  errors: [400, 401, 404],
});
