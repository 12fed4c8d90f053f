import { z } from 'zod';

// The public site's server calls: contact messages, desktop installers, blog posts.

/** The public pages search engines may list. Share links and the signed-in app are not among them. */
export const PUBLIC_PAGES = [
  '/',
  '/about',
  '/roadmap',
  '/features',
  '/pricing',
  '/resources',
  '/mobile',
  '/contact',
  '/careers',
  '/download',
  '/blog',
  '/terms',
  '/privacy',
  '/copyright',
  '/cookies',
] as const;

export const CONTACT_TOPICS = ['general', 'artists', 'labels'] as const;
export const CONTACT_ROLES = ['artist', 'producer', 'engineer', 'songwriter', 'other'] as const;

export const CONTACT_MESSAGES = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email address',
  subjectRequired: 'Subject is required',
  messageRequired: 'Message is required',
  thanks: 'Thank you for your message. We will get back to you soon!',
  tooMany: 'Too many messages from this address. Please try again in an hour.',
} as const;

const required = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `At most ${max} characters`);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

export const contactBodySchema = z.object({
  topic: z.enum(CONTACT_TOPICS).default('general'),
  name: required(CONTACT_MESSAGES.nameRequired, 200),
  email: z
    .string({ error: CONTACT_MESSAGES.emailRequired })
    .trim()
    .min(1, CONTACT_MESSAGES.emailRequired)
    .max(320)
    .pipe(z.email(CONTACT_MESSAGES.emailInvalid)),
  subject: required(CONTACT_MESSAGES.subjectRequired, 300),
  message: required(CONTACT_MESSAGES.messageRequired, 10_000),
  role: z.enum(CONTACT_ROLES).optional(),
  company_name: optionalText(200),
  /** Free text, e.g. "12" or "about 40". */
  artists_represented: optionalText(100),
});
export type ContactBody = z.input<typeof contactBodySchema>;
export const contactResponseSchema = z.object({ id: z.string(), message: z.string() });

export const DESKTOP_PLATFORMS = ['mac', 'win', 'linux'] as const;
export type DesktopPlatform = (typeof DESKTOP_PLATFORMS)[number];
export const desktopLatestResponseSchema = z.object({
  platform: z.enum(DESKTOP_PLATFORMS),
  url: z.string(),
  version: z.string().nullable(),
});

export const blogPostMetaSchema = z.object({
  slug: z.string(),
  title: z.string(),
  /** YYYY-MM-DD */
  date: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  /** Same-origin image path, or null. */
  hero: z.string().nullable(),
});
export type BlogPostMeta = z.infer<typeof blogPostMetaSchema>;
export const blogListResponseSchema = z.object({ posts: z.array(blogPostMetaSchema) });
export const blogPostResponseSchema = z.object({
  post: blogPostMetaSchema.extend({
    /** The post body as Markdown (render it without raw HTML). */
    markdown: z.string(),
  }),
});
