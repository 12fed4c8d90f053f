import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  blogListResponseSchema,
  blogPostResponseSchema,
  CONTACT_MESSAGES,
  contactBodySchema,
  contactResponseSchema,
  desktopLatestResponseSchema,
  errorBodySchema,
  PUBLIC_PAGES,
} from '@takes/contract';
import type { SiteService } from './site.service';

const errors = {
  400: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/** Public routes (no session): contact, desktop installers, blog. */
export const siteRoutes =
  (deps: { service: SiteService }): FastifyPluginAsyncZod =>
  (app) => {
    const { service } = deps;
    const tags = ['site'];
    app.post(
      '/contact',
      {
        schema: {
          tags,
          body: contactBodySchema,
          response: { 201: contactResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const id = await service.contact(request.body, request.ip);
        return reply.status(201).send({ id, message: CONTACT_MESSAGES.thanks });
      },
    );
    app.get(
      '/updates/desktop/latest/:platform',
      {
        schema: {
          tags,
          params: z.object({ platform: z.string().max(20) }),
          response: { 200: desktopLatestResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-cache');
        return service.latestDesktop(request.params.platform);
      },
    );
    app.get(
      '/blog',
      { schema: { tags, response: { 200: blogListResponseSchema, ...errors } } },
      async () => ({ posts: await service.posts() }),
    );
    app.get(
      '/blog/:slug',
      {
        schema: {
          tags,
          params: z.object({ slug: z.string().max(200) }),
          response: { 200: blogPostResponseSchema, ...errors },
        },
      },
      async (request) => ({ post: await service.post(request.params.slug) }),
    );
    return Promise.resolve();
  };

/** robots.txt and sitemap.xml at the site root. */
export const crawlerRoutes =
  (deps: { service: SiteService; publicUrl: string }): FastifyPluginAsyncZod =>
  (app) => {
    app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) => {
      const lines = [
        'User-agent: *',
        'Disallow: /api/',
        'Disallow: /share/',
        'Disallow: /desktop-return',
        'Disallow: /desktop-auth',
        ...[
          '/dashboard',
          '/upload',
          '/projects/',
          '/repositories',
          '/bounces',
          '/search',
          '/debug',
          '/profile',
          '/settings',
        ].map((p) => `Disallow: ${p}`),
        '',
        `Sitemap: ${deps.publicUrl}/sitemap.xml`,
        '',
      ];
      return reply.type('text/plain; charset=utf-8').send(lines.join('\n'));
    });
    app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
      const posts = await deps.service.posts();
      const urls = [
        ...PUBLIC_PAGES.map((p) => ({
          loc: `${deps.publicUrl}${p === '/' ? '/' : p}`,
          lastmod: null,
        })),
        ...posts.map((p) => ({ loc: `${deps.publicUrl}/blog/${p.slug}`, lastmod: p.date })),
      ];
      const body = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...urls.map(
          (u) =>
            `  <url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`,
        ),
        '</urlset>',
        '',
      ].join('\n');
      return reply.type('application/xml; charset=utf-8').send(body);
    });
    return Promise.resolve();
  };

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
