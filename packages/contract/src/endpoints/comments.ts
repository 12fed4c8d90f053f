import { z } from 'zod';
import { defineEndpoint, empty } from '../endpoint';
import {
  commentSchema,
  ownerCommentBodySchema,
  SHARE_MESSAGES,
  visitorCommentBodySchema,
} from '../sharing';
import { shareLink, signedIn } from './shared';

const tag = 'comments';
const versionParams = z.object({
  versionId: z.string().min(1, SHARE_MESSAGES.versionIdRequired).max(64),
});
const commentParams = z.object({ commentId: z.string().min(1).max(64) });
const hashParams = z.object({ hash: z.string().min(1).max(64) });

export const listVersionComments = defineEndpoint({
  name: 'listVersionComments',
  method: 'GET',
  path: '/api/versions/:versionId/comments',
  summary: "A version's comments, from the team and through its links",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: versionParams,
  query: z.object({
    resolved: z.enum(['include', 'exclude']).default('include'),
    /** 'previous': also the comments of the branch's earlier versions (each with its version_number). */
    include: z.enum(['previous']).optional(),
  }),
  responses: { 200: z.array(commentSchema) },
  errors: [400, 401, 404],
});

export const addVersionComment = defineEndpoint({
  name: 'addVersionComment',
  method: 'POST',
  path: '/api/versions/:versionId/comments',
  summary: 'Comment on a version, or reply to a comment (optionally team only)',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: versionParams,
  body: ownerCommentBodySchema,
  responses: { 201: commentSchema },
  errors: [400, 401, 403, 404],
});

export const deleteComment = defineEndpoint({
  name: 'deleteComment',
  method: 'DELETE',
  path: '/api/comments/:commentId',
  summary: "Delete a comment with its replies (your own; anybody's as an Editor)",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: commentParams,
  responses: { 204: empty('Deleted.') },
  errors: [400, 401, 403, 404],
});

export const setCommentResolved = defineEndpoint({
  name: 'setCommentResolved',
  method: 'PATCH',
  path: '/api/comments/:commentId',
  summary: "Mark a comment resolved or open again (your own; anybody's as an Editor)",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: commentParams,
  body: z.object({ resolved: z.boolean() }),
  responses: { 200: commentSchema },
  errors: [400, 401, 403, 404],
});

export const listShareLinkComments = defineEndpoint({
  name: 'listShareLinkComments',
  method: 'GET',
  path: '/api/links/hash/:hash/comments',
  summary: 'The comments a share link shows its listener',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: hashParams,
  responses: { 200: z.array(commentSchema) },
  errors: [400, 401, 404, 410, 429],
});

export const addShareLinkComment = defineEndpoint({
  name: 'addShareLinkComment',
  method: 'POST',
  path: '/api/links/hash/:hash/comments',
  summary: 'Comment through a share link',
  description:
    'A signed-in listener comments under their account (the session cookie is read when sent); anyone else gives a visitor_name.',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: hashParams,
  body: visitorCommentBodySchema,
  responses: { 201: commentSchema },
  errors: [400, 401, 404, 410, 429],
});
