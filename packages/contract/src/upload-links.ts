import { z } from 'zod';
import {
  GUEST_EMAIL_MAX,
  GUEST_NAME_MAX,
  UPLOAD_LINK_DEFAULT_BYTES,
  UPLOAD_LINK_DEFAULT_FILES,
  UPLOAD_LINK_MAX_BYTES,
  UPLOAD_LINK_MAX_FILES,
  UPLOAD_LINK_MESSAGE_MAX,
  UPLOAD_LINK_MESSAGES,
  UPLOAD_LINK_NAME_MAX,
} from './upload-link-rules';
import { linkPasswordSchema } from './sharing';

export * from './upload-link-rules';

/** A new 'Upload link' for a branch (Owner and Editor). */
export const createUploadLinkBodySchema = z.object({
  branch_id: z.string().min(1).max(64),
  name: z
    .string()
    .trim()
    .min(1, UPLOAD_LINK_MESSAGES.nameRequired)
    .max(UPLOAD_LINK_NAME_MAX, UPLOAD_LINK_MESSAGES.nameTooLong),
  message: z
    .string()
    .trim()
    .max(UPLOAD_LINK_MESSAGE_MAX, UPLOAD_LINK_MESSAGES.messageTooLong)
    .nullish(),
  /** When it stops taking files; 7 days from now if not given, at most 90. */
  expires_at: z.iso.datetime({ offset: true, error: 'Expiry must be an ISO date-time' }).nullish(),
  /** The link-password rules (at least 8 characters, not a common one). */
  password: linkPasswordSchema.nullish(),
  max_files: z
    .number()
    .int()
    .min(1, UPLOAD_LINK_MESSAGES.filesRange)
    .max(UPLOAD_LINK_MAX_FILES, UPLOAD_LINK_MESSAGES.filesRange)
    .default(UPLOAD_LINK_DEFAULT_FILES),
  max_bytes: z
    .number()
    .int()
    .min(1024 * 1024, UPLOAD_LINK_MESSAGES.bytesRange)
    .max(UPLOAD_LINK_MAX_BYTES, UPLOAD_LINK_MESSAGES.bytesRange)
    .default(UPLOAD_LINK_DEFAULT_BYTES),
});
export type CreateUploadLinkBody = z.input<typeof createUploadLinkBodySchema>;

/** A new 'Upload link' for a repository's branch, named as the repository's routes name it. */
export const createRepoUploadLinkBodySchema = createUploadLinkBodySchema
  .omit({ branch_id: true })
  .extend({ branch: z.string().min(1).max(100) });
export type CreateRepoUploadLinkBody = z.input<typeof createRepoUploadLinkBodySchema>;

/** An upload link as the team sees it: a project's branch's, or a repository's branch's. */
export const uploadLinkSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  repo_id: z.string().nullable(),
  /** The project's or the repository's branch. */
  branch_id: z.string(),
  branch_name: z.string(),
  name: z.string(),
  message: z.string().nullable(),
  /** The guest's page: `${PUBLIC_URL}/upload/<key>`. */
  url: z.string(),
  has_password: z.boolean(),
  max_files: z.number().int(),
  max_bytes: z.number().int(),
  files_received: z.number().int(),
  bytes_received: z.number().int(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
export type UploadLink = z.infer<typeof uploadLinkSchema>;

export const uploadLinksResponseSchema = z.object({ links: z.array(uploadLinkSchema) });
export type UploadLinksResponse = z.infer<typeof uploadLinksResponseSchema>;

/** What a guest's page is told: the link's own words and room, nothing of the project. */
export const guestUploadPageSchema = z.object({
  name: z.string(),
  message: z.string().nullable(),
  expires_at: z.string(),
  files_left: z.number().int(),
  bytes_left: z.number().int(),
  /** The most one file may be (the smaller of 500 MB and `bytes_left`). */
  max_file_bytes: z.number().int(),
  /** Where the page sends files with tus (`/api/guest-uploads`). */
  upload_endpoint: z.string(),
});
export type GuestUploadPage = z.infer<typeof guestUploadPageSchema>;

/** A file a guest sent, as the team sees it while it waits. */
export const guestFileSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  repo_id: z.string().nullable(),
  /** The project's or the repository's branch. */
  branch_id: z.string(),
  guest_name: z.string(),
  /** Only to whoever may accept it (Editor and up), when the guest gave one. */
  guest_email: z.string().nullable(),
  link_name: z.string(),
  /** 'Sent by {name} via {link}'. */
  sent_by: z.string(),
  file_name: z.string(),
  size: z.number().int(),
  status: z.enum(['processing', 'completed', 'failed']),
  error: z.string().nullable(),
  duration: z.number().nullable(),
  /** A small waveform (200 peaks) once processed. */
  peaks: z.array(z.number()).nullable(),
  stream_url: z.string(),
  created_at: z.string(),
});
export type GuestFile = z.infer<typeof guestFileSchema>;

export const guestFilesResponseSchema = z.object({
  files: z.array(guestFileSchema),
  /**
   * The number the next version of the branch gets ('Add as Version N'); null without a branch,
   * and for a repository (a bounce has no number: 'Add as bounce').
   */
  next_version_number: z.number().int().nullable(),
});
export type GuestFilesResponse = z.infer<typeof guestFilesResponseSchema>;

export const guestFilesQuerySchema = z.object({ branch_id: z.string().min(1).max(64).optional() });
/** A repository's guest files: its branch by name, as the repository's routes name it. */
export const repoGuestFilesQuerySchema = z.object({
  branch: z.string().min(1).max(100).optional(),
});

export const acceptGuestFileBodySchema = z.object({
  /** The version's message (a project's file). */
  message: z.string().trim().max(1000).nullish(),
  /** The bounce's title (a repository's file); the file's name without its extension if not given. */
  title: z.string().trim().max(200).nullish(),
});

/** 'Add as Version N': the version made. */
export const acceptedAsVersionSchema = z.object({
  version_id: z.string(),
  project_id: z.string(),
  branch_id: z.string(),
  version_number: z.number().int(),
});
/** 'Add as bounce': the bounce made on the repository's branch. */
export const acceptedAsBounceSchema = z.object({
  bounce_id: z.string(),
  repo_id: z.string(),
  branch: z.string(),
  title: z.string(),
});
export const acceptedGuestFileSchema = z.union([acceptedAsVersionSchema, acceptedAsBounceSchema]);
export type AcceptedGuestFile = z.infer<typeof acceptedGuestFileSchema>;

/** The guest's words, sent as tus Upload-Metadata (`guest_name`, `guest_email`). */
export const guestIdentitySchema = z.object({
  guest_name: z
    .string()
    .trim()
    .min(1, UPLOAD_LINK_MESSAGES.guestNameRequired)
    .max(GUEST_NAME_MAX, UPLOAD_LINK_MESSAGES.guestNameTooLong),
  guest_email: z
    .union([
      z.literal(''),
      z
        .email(UPLOAD_LINK_MESSAGES.guestEmailInvalid)
        .max(GUEST_EMAIL_MAX, UPLOAD_LINK_MESSAGES.guestEmailInvalid),
    ])
    .optional(),
});
