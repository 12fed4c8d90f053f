import { z } from 'zod';
import { defineEndpoint, text } from '../endpoint';
import {
  blogListResponseSchema,
  blogPostResponseSchema,
  contactBodySchema,
  contactResponseSchema,
  desktopLatestResponseSchema,
} from '../site';
import { publicAccess } from './shared';

const tag = 'site';

export const sendContactMessage = defineEndpoint({
  name: 'sendContactMessage',
  method: 'POST',
  path: '/api/contact',
  summary: 'Send a message through the contact form',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: contactBodySchema,
  responses: { 201: contactResponseSchema },
  errors: [400, 429],
});

export const getLatestDesktopRelease = defineEndpoint({
  name: 'getLatestDesktopRelease',
  method: 'GET',
  path: '/api/updates/desktop/latest/:platform',
  summary: "Where to download the desktop app's latest installer for a platform",
  tag,
  auth: publicAccess,
  demo: 'allowed',
  params: z.object({ platform: z.string().max(20) }),
  responses: { 200: desktopLatestResponseSchema },
  errors: [400, 404, 503],
});

export const listBlogPosts = defineEndpoint({
  name: 'listBlogPosts',
  method: 'GET',
  path: '/api/blog',
  summary: 'The blog posts, newest first',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  responses: { 200: blogListResponseSchema },
  errors: [],
});

export const getBlogPost = defineEndpoint({
  name: 'getBlogPost',
  method: 'GET',
  path: '/api/blog/:slug',
  summary: 'One blog post with its Markdown',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  params: z.object({ slug: z.string().max(200) }),
  responses: { 200: blogPostResponseSchema },
  errors: [400, 404],
});

export const getRobotsTxt = defineEndpoint({
  name: 'getRobotsTxt',
  method: 'GET',
  path: '/robots.txt',
  summary: 'What crawlers may index',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  responses: { 200: text('text/plain', 'The robots.txt rules.') },
  errors: [],
});

export const getSitemap = defineEndpoint({
  name: 'getSitemap',
  method: 'GET',
  path: '/sitemap.xml',
  summary: 'The public pages and blog posts, for crawlers',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  responses: { 200: text('application/xml', 'The sitemap.') },
  errors: [],
});
