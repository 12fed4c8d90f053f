import { z } from 'zod';

/** The signed-in person's profile as the settings page shows it. */
export const profileSchema = z.object({
  email: z.string(),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

export const updateProfileBodySchema = z.object({
  displayName: z.string().trim().max(80, 'Display name must be 80 characters or fewer').nullable(),
});
