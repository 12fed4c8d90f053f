import { z } from 'zod';
import { collectionItemKindSchema } from './collections';
import { EMAILS_PER_HOUR } from './member-limits';
import {
  LINK_PASSWORD_MAX,
  LINK_PASSWORD_MESSAGES,
  LINK_PASSWORD_MIN,
  linkPasswordSchema,
  unlockLinkBodySchema,
} from './sharing';

/** What collection share links say (server and clients share them). */
export const COLLECTION_LINK_MESSAGES = {
  nameRequired: 'Give the link a name.',
  nameTooLong: 'A link name can be at most 100 characters.',
  passwordTooShort: LINK_PASSWORD_MESSAGES.tooShort,
  passwordTooLong: LINK_PASSWORD_MESSAGES.tooLong,
  recipientNameRequired: 'Give each recipient a name.',
  linkNotFound: 'Link not found',
  needsPassword: LINK_PASSWORD_MESSAGES.needsPassword,
  wrongPassword: LINK_PASSWORD_MESSAGES.wrongPassword,
  itemNotFound: 'Item not found',
  noComments: 'A bounce takes no comments.',
  tooManyEmails: `Too many emails sent: you can email up to ${EMAILS_PER_HOUR} people an hour. Copy the links instead, or try again later.`,
} as const;

export const COLLECTION_LINK_NAME_MAX = 100;
export const COLLECTION_LINK_PASSWORD_MIN = LINK_PASSWORD_MIN;
export const COLLECTION_LINK_PASSWORD_MAX = LINK_PASSWORD_MAX;
/** At most this many recipients (one link each) per request. */
export const COLLECTION_LINK_RECIPIENTS_MAX = 50;

const recipientSchema = z.object({
  name: z
    .string({ error: COLLECTION_LINK_MESSAGES.recipientNameRequired })
    .trim()
    .min(1, COLLECTION_LINK_MESSAGES.recipientNameRequired)
    .max(COLLECTION_LINK_NAME_MAX),
  email: z.email().max(254).nullish(),
});

export const createCollectionLinkBodySchema = z.object({
  name: z
    .string({ error: COLLECTION_LINK_MESSAGES.nameRequired })
    .trim()
    .min(1, COLLECTION_LINK_MESSAGES.nameRequired)
    .max(COLLECTION_LINK_NAME_MAX, COLLECTION_LINK_MESSAGES.nameTooLong),
  expires_at: z.iso.datetime({ offset: true }).nullish(),
  download_enabled: z.boolean().optional(),
  /** Kept only as a slow hash; never shown again. */
  password: linkPasswordSchema.optional(),
  /** One link per recipient, each with its own key; none: one link. */
  recipients: z.array(recipientSchema).max(COLLECTION_LINK_RECIPIENTS_MAX).optional(),
  /** Email each recipient who has an address their own link (through the Mailer). */
  email_recipients: z.boolean().optional(),
});

export const collectionLinkSchema = z.object({
  id: z.string(),
  key: z.string(),
  url: z.string(),
  name: z.string(),
  recipient: z.object({ name: z.string(), email: z.string().nullable() }).nullable(),
  expires_at: z.string().nullable(),
  download_enabled: z.boolean(),
  has_password: z.boolean(),
  revoked: z.boolean(),
  created_at: z.string(),
  /** Listen receipts per item that had any activity on this link. */
  receipts: z.array(
    z.object({
      item_id: z.string(),
      plays_started: z.number().int(),
      plays_30s: z.number().int(),
      plays_90: z.number().int(),
      downloads: z.number().int(),
      last_activity_at: z.string(),
    }),
  ),
  /** Whether this link was emailed to its recipient when it was made. */
  emailed: z.boolean(),
  /** Comments made through this link, oldest first (each on one item). */
  comments: z.array(
    z.object({
      id: z.string(),
      item_id: z.string().nullable(),
      author: z.string(),
      content: z.string(),
      timestamp: z.number().nullable(),
      created_at: z.string(),
    }),
  ),
});

export const collectionLinksResponseSchema = z.object({ links: z.array(collectionLinkSchema) });

export const unlockCollectionLinkBodySchema = unlockLinkBodySchema;

/** An item a link's visitor may play: the owner may read it now and it has a processed version. */
export const sharedCollectionItemSchema = z.object({
  id: z.string(),
  /** 0..n-1 among the items shown. */
  position: z.number().int(),
  kind: collectionItemKindSchema,
  title: z.string(),
  /** The project's name, or the repository's for a bounce. */
  project_name: z.string(),
  /** Whether visitors may comment on it (a version: yes; a bounce takes no comments). */
  commentable: z.boolean(),
  /** Seconds; null until known. */
  duration: z.number().nullable(),
  download_enabled: z.boolean(),
  stream_url: z.string(),
  /** The original file as an attachment; null when the link does not allow downloads. */
  download_url: z.string().nullable(),
});

export const sharedCollectionSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  /** Same-origin URL of the collection's cover through this link, or null when it has none. */
  cover_url: z.string().nullable(),
  /** The recipient's name on a per-recipient link (a page may offer it as the visitor's name). */
  recipient_name: z.string().nullable(),
  download_enabled: z.boolean(),
  items: z.array(sharedCollectionItemSchema),
});

/** 'play': started; 'played_30s': heard 30 seconds; 'played_90': heard 90%; 'download'. */
export const collectionLinkReceiptBodySchema = z.object({
  event: z.enum(['play', 'played_30s', 'played_90', 'download']),
});

export type SharedCollection = z.infer<typeof sharedCollectionSchema>;
export type SharedCollectionItem = z.infer<typeof sharedCollectionItemSchema>;
export type CreateCollectionLinkBody = z.infer<typeof createCollectionLinkBodySchema>;
export type CollectionLink = z.infer<typeof collectionLinkSchema>;

/** 'Download all' on a collection link: a zip of the items' originals, built by a job. */
export const COLLECTION_ZIP_STATUSES = ['pending', 'building', 'ready', 'failed'] as const;
/** How long a built zip can be downloaded. */
export const COLLECTION_ZIP_TTL_HOURS = 24;
/** New zips one address may have built for one link per hour (a fresh one is handed out again). */
export const COLLECTION_ZIP_STARTS_PER_HOUR = 10;

export const COLLECTION_ZIP_MESSAGES = {
  notFound: 'Download not found',
  notReady: 'The download is still being prepared.',
  expired: 'This download has expired. Press Download all again.',
  /** The link no longer serves exactly the takes the zip holds (one removed, access lost…). */
  outOfDate: 'This download is out of date. Press Download all again.',
  failed: 'The download could not be prepared. Please try again.',
  empty: 'There is nothing to download in this collection yet.',
  tooMany: 'Too many downloads prepared. Please wait a while and try again.',
} as const;

export const collectionZipSchema = z.object({
  id: z.string(),
  status: z.enum(COLLECTION_ZIP_STATUSES),
  /** Items copied into the zip so far. */
  done: z.number().int(),
  total: z.number().int(),
  /** The zip's address once ready, else null. */
  file_url: z.string().nullable(),
  /** Until when it can be downloaded. */
  expires_at: z.string(),
});

export type CollectionZip = z.infer<typeof collectionZipSchema>;
