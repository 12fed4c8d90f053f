import { z } from 'zod';
import { ACCESS_REQUEST_MESSAGES, ACCESS_REQUEST_NOTE_MAX_LENGTH } from './access-request-rules';
import { MEMBER_ROLES } from './roles';

export * from './access-request-rules';

/** 'Request access' from a share link: an optional note to the owner. */
export const accessRequestBodySchema = z.object({
  note: z
    .string({ error: 'A note must be text' })
    .trim()
    .max(ACCESS_REQUEST_NOTE_MAX_LENGTH, ACCESS_REQUEST_MESSAGES.noteTooLong)
    .optional(),
});

/** From a collection link: the item being listened to names the project asked for. */
export const collectionAccessRequestBodySchema = accessRequestBodySchema.extend({
  item_id: z.string({ error: 'item_id is required' }).min(1).max(64),
});

/** What the person who asked learns: the request is open (the owner decides). */
export const accessRequestSentSchema = z.object({
  id: z.string(),
  project_name: z.string(),
  created_at: z.string(),
});
export type AccessRequestSent = z.infer<typeof accessRequestSentSchema>;

/** An open request, as the project's owner sees it in the Members dialog. */
export const accessRequestSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  /** The person's name (display name, else the part of the address before the @). */
  name: z.string(),
  email: z.string(),
  avatar_url: z.string().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

export const accessRequestsResponseSchema = z.object({ requests: z.array(accessRequestSchema) });
export type AccessRequestsResponse = z.infer<typeof accessRequestsResponseSchema>;

/** Granting: the role the person gets (Viewer unless the owner picks another). */
export const grantAccessBodySchema = z.object({
  role: z
    .enum(MEMBER_ROLES, { error: 'Role must be Viewer, Commenter or Editor.' })
    .default('viewer'),
});

export const grantAccessResponseSchema = z.object({
  user_id: z.string(),
  role: z.enum(MEMBER_ROLES),
});
