import { z } from 'zod';

/** The signed-in person's profile as the settings page shows it. */
export const profileSchema = z.object({
  email: z.string(),
  display_name: z.string().nullable(),
  avatar_url: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

export const updateProfileBodySchema = z.object({
  display_name: z.string().trim().max(80, 'Display name must be 80 characters or fewer').nullable(),
});
