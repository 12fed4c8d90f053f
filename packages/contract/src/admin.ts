import { z } from 'zod';
import { signupPolicySchema } from './auth';

/**
 * The instance's admin page (issue 48): its people, sign-up policy, storage and quotas, the
 * defaults new share links start from, and the record of every admin action.
 */

/** What a refused disabled account hears (sign-in, or a request with an old credential). */
export const ACCOUNT_DISABLED_MESSAGE =
  'This account has been disabled by the admin of this Takes.';

/** A person's storage: what their originals and renditions take, and their quota (null: none). */
export const storageUsageSchema = z.object({
  used_bytes: z.number().int().nonnegative(),
  quota_bytes: z.number().int().positive().nullable(),
});
export type StorageUsage = z.infer<typeof storageUsageSchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  joined_at: z.string(),
  /** The newest use of any of their sessions or desktop tokens; null: never since. */
  last_seen_at: z.string().nullable(),
  storage_used_bytes: z.number().int().nonnegative(),
  /** Their own quota, set by an admin; null: the instance's (USER_STORAGE_QUOTA) applies. */
  storage_quota_bytes: z.number().int().positive().nullable(),
  /** The quota that applies to them now, theirs or the instance's; null: none. */
  effective_quota_bytes: z.number().int().positive().nullable(),
  projects: z.number().int().nonnegative(),
  disabled_at: z.string().nullable(),
  /** While disabled: whether their share and collection links stopped answering too. */
  links_disabled: z.boolean(),
  admin: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUsersSchema = z.object({ users: z.array(adminUserSchema) });

export const disableUserBodySchema = z.object({
  /** true: their share and collection links keep working while they are disabled. */
  keep_links: z.boolean(),
});
export type DisableUserBody = z.infer<typeof disableUserBodySchema>;

export const userQuotaBodySchema = z.object({
  /** null: the instance's quota applies again. */
  storage_quota_bytes: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable(),
});
export type UserQuotaBody = z.infer<typeof userQuotaBodySchema>;

export const adminSignupsSchema = z.object({
  policy: signupPolicySchema,
  /** 'stored': an admin chose it (it overrides SIGNUPS until reset); 'environment': SIGNUPS. */
  source: z.enum(['stored', 'environment']),
  environment_policy: signupPolicySchema,
  allowed_domains: z.array(z.string()),
});
export type AdminSignups = z.infer<typeof adminSignupsSchema>;
export const adminSignupsBodySchema = z.object({ policy: signupPolicySchema });

export const signupInvitationBodySchema = z.object({
  email: z.string().trim().toLowerCase().email('Invalid email address').max(254),
});

/** What new share links start from in the share dialogs (an admin sets it for the instance). */
export const linkDefaultsSchema = z.object({
  /** Days until a new link expires; null: never. */
  expires_in_days: z.number().int().min(1).max(3650).nullable(),
  allow_downloads: z.boolean(),
});
export type LinkDefaults = z.infer<typeof linkDefaultsSchema>;

export const STORAGE_KINDS = ['originals', 'renditions', 'lossless', 'images', 'other'] as const;
const storedBytes = z.number().int().nonnegative();
export const adminStorageSchema = z.object({
  total_bytes: storedBytes,
  // One property per STORAGE_KINDS entry (a record keyed by an enum reads badly in OpenAPI).
  by_kind: z.object({
    originals: storedBytes,
    renditions: storedBytes,
    lossless: storedBytes,
    images: storedBytes,
    other: storedBytes,
  }),
});
export type AdminStorage = z.infer<typeof adminStorageSchema>;

export const adminActionSchema = z.object({
  id: z.string(),
  admin_email: z.string(),
  /** e.g. 'user.disable', 'user.enable', 'user.quota', 'signups.set', 'signups.reset', … */
  action: z.string(),
  target_email: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});
export type AdminAction = z.infer<typeof adminActionSchema>;
export const adminActionsSchema = z.object({
  actions: z.array(adminActionSchema),
  next_cursor: z.string().nullable(),
});
export const adminActionsQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
