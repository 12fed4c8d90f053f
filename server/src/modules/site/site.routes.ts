import type { FastifyPluginAsync } from 'fastify';
import { CONTACT_MESSAGES, endpoints, PUBLIC_PAGES } from '@takes/contract';
import { route } from '../../http/route';
import type { SiteService } from './site.service';

const api = endpoints.site;

/** Public routes (no session): contact, desktop installers, blog. */
export const siteRoutes =
  (deps: { service: SiteService }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    route(app, api.sendContactMessage, {}, async (request) => {
      const id = await service.contact(request.body, request.ip);
      return { id, message: CONTACT_MESSAGES.thanks };
    });
    route(app, api.getLatestDesktopRelease, {}, async (request, reply) => {
      reply.header('cache-control', 'no-cache');
      return service.latestDesktop(request.params.platform);
    });
    route(app, api.listBlogPosts, {}, async () => ({ posts: await service.posts() }));
    route(app, api.getBlogPost, {}, async (request) => ({
      post: await service.post(request.params.slug),
    }));
    return Promise.resolve();
  };

/** robots.txt and sitemap.xml at the site root. */
export const crawlerRoutes =
  (deps: { service: SiteService; publicUrl: string }): FastifyPluginAsync =>
  (app) => {
    route(app, api.getRobotsTxt, {}, (_request, reply) => {
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
          '/admin',
          '/profile',
          '/settings',
        ].map((p) => `Disallow: ${p}`),
        '',
        `Sitemap: ${deps.publicUrl}/sitemap.xml`,
        '',
      ];
      return reply.type('text/plain; charset=utf-8').send(lines.join('\n'));
    });
    route(app, api.getSitemap, {}, async (_request, reply) => {
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
