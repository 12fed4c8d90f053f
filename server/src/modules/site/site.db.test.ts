import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN } from '../../../test/api';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { parsePost } from './site.service';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-site-'));
  const blog = path.join(dir, 'blog');
  fs.mkdirSync(blog);
  fs.writeFileSync(
    path.join(blog, 'branches.md'),
    '---\ntitle: Why your mixes need branches\ndate: 2026-09-14\ndescription: One idea per branch.\ntags: [workflow, "branches"]\nhero: /blog/branches.svg\n---\n\n# Branches\n\nText <script>alert(1)</script>\n',
  );
  fs.writeFileSync(
    path.join(blog, 'feedback.md'),
    '---\ntitle: "Timestamped feedback"\ndate: 2026-10-02\ndescription: Comments at the second they are about.\ntags: [feedback]\nhero: https://cdn.example.com/x.png\n---\nBody\n',
  );
  fs.writeFileSync(path.join(blog, 'draft.md'), '---\ntitle: No date yet\n---\nBody\n');
  fs.writeFileSync(path.join(blog, 'notes.txt'), 'not a post');
  fs.writeFileSync(
    path.join(dir, 'releases.json'),
    JSON.stringify({
      mac: { url: 'https://downloads.takes.example/Takes-1.2.0.dmg', version: '1.2.0' },
    }),
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('public site API: contact, desktop downloads, blog, robots and sitemap', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  const contact = (body: object, ip = '203.0.113.7') =>
    t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: body,
      headers: { origin: ORIGIN, 'x-forwarded-for': ip },
    });

  it('stores a valid contact message, refuses bad ones with the field message, and rate limits per address', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    const ok = await contact({
      topic: 'labels',
      name: ' Ada ',
      email: 'ada@example.com',
      subject: 'Label plan',
      message: 'We manage 12 artists.',
      company_name: 'North Records',
      artists_represented: '12',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({
      message: 'Thank you for your message. We will get back to you soon!',
    });
    const rows = await t.deps.database.db.selectFrom('contact_messages').selectAll().execute();
    expect(rows).toMatchObject([
      {
        topic: 'labels',
        name: 'Ada',
        email: 'ada@example.com',
        subject: 'Label plan',
        company_name: 'North Records',
        artists_represented: '12',
        role: null,
      },
    ]);

    const cases: [object, string][] = [
      [{ email: 'a@example.com', subject: 's', message: 'm' }, 'Name is required'],
      [{ name: 'A', email: 'nope', subject: 's', message: 'm' }, 'Invalid email address'],
      [{ name: 'A', email: '', subject: 's', message: 'm' }, 'Email is required'],
      [{ name: 'A', email: 'a@example.com', subject: ' ', message: 'm' }, 'Subject is required'],
      [{ name: 'A', email: 'a@example.com', subject: 's', message: '' }, 'Message is required'],
    ];
    for (const [body, error] of cases) {
      const response = await contact(body, '203.0.113.8');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error });
    }
    const badRole = await contact(
      { name: 'A', email: 'a@example.com', subject: 's', message: 'm', role: 'dj' },
      '203.0.113.8',
    );
    expect(badRole.statusCode).toBe(400);

    const message = {
      name: 'B',
      email: 'b@example.com',
      subject: 's',
      message: 'm',
      role: 'producer',
    };
    for (let i = 0; i < 5; i++)
      expect((await contact(message, '198.51.100.1')).statusCode).toBe(201);
    const limited = await contact(message, '198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect((await contact(message, '198.51.100.2')).statusCode).toBe(201);
    expect(
      await t.deps.database.db.selectFrom('contact_messages').selectAll().execute(),
    ).toHaveLength(7);
  });

  it('answers the desktop installer URL from the releases file, then the environment, else no_url', async () => {
    t = await createTestApp({
      env: {
        DESKTOP_RELEASES_FILE: path.join(dir, 'releases.json'),
        DESKTOP_DOWNLOAD_URL_WIN: 'https://downloads.takes.example/Takes-Setup.exe',
      },
    });
    const get = (platform: string) =>
      t.app.inject({ method: 'GET', url: `/api/updates/desktop/latest/${platform}` });
    expect((await get('mac')).json()).toEqual({
      platform: 'mac',
      url: 'https://downloads.takes.example/Takes-1.2.0.dmg',
      version: '1.2.0',
    });
    expect((await get('win')).json()).toMatchObject({
      url: 'https://downloads.takes.example/Takes-Setup.exe',
    });
    const linux = await get('linux');
    expect(linux.statusCode).toBe(404);
    expect(linux.json()).toEqual({ error: 'no_url', code: 'not_found' });
    expect((await get('amiga')).statusCode).toBe(400);
  });

  it('lists blog posts newest first, serves one as Markdown, and refuses unknown or unsafe slugs', async () => {
    t = await createTestApp({ env: { BLOG_DIR: path.join(dir, 'blog') } });
    const list = await t.app.inject({ method: 'GET', url: '/api/blog' });
    expect(list.json()).toEqual({
      posts: [
        {
          slug: 'feedback',
          title: 'Timestamped feedback',
          date: '2026-10-02',
          description: 'Comments at the second they are about.',
          tags: ['feedback'],
          hero: null,
        },
        {
          slug: 'branches',
          title: 'Why your mixes need branches',
          date: '2026-09-14',
          description: 'One idea per branch.',
          tags: ['workflow', 'branches'],
          hero: '/blog/branches.svg',
        },
      ],
    });
    const post = await t.app.inject({ method: 'GET', url: '/api/blog/branches' });
    expect(post.json<{ post: { markdown: string } }>().post.markdown).toBe(
      '# Branches\n\nText <script>alert(1)</script>',
    );
    for (const slug of ['draft', 'missing', '..%2F..%2Fetc%2Fpasswd', 'notes']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/blog/${slug}` });
      expect(response.statusCode, slug).toBe(404);
      expect(response.json()).toEqual({ error: 'Post not found', code: 'not_found' });
    }
  });

  it('serves robots.txt and a sitemap of the public pages and posts, without share links', async () => {
    t = await createTestApp({
      env: { BLOG_DIR: path.join(dir, 'blog'), PUBLIC_URL: 'https://takes.example' },
    });
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.headers['content-type']).toContain('text/plain');
    expect(robots.body).toContain('Disallow: /share/');
    expect(robots.body).toContain('Sitemap: https://takes.example/sitemap.xml');
    const sitemap = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.headers['content-type']).toContain('application/xml');
    for (const page of [
      '/',
      '/about',
      '/roadmap',
      '/pricing',
      '/blog',
      '/privacy',
      '/blog/branches',
    ])
      expect(sitemap.body).toContain(`<loc>https://takes.example${page}</loc>`);
    expect(sitemap.body).not.toContain('/share/');
    expect(sitemap.body).not.toContain('/dashboard');
  });

  it('parses front matter strictly', () => {
    expect(parsePost('x', 'no front matter')).toBeUndefined();
    expect(parsePost('x', '---\ntitle: T\ndate: 14 Sept\n---\nB')).toBeUndefined();
    expect(
      parsePost('x', '---\ntitle: T\ndate: 2026-01-02\nhero: //evil.example/x.png\n---\nB'),
    ).toMatchObject({
      hero: null,
      tags: [],
      description: '',
      markdown: 'B',
    });
  });
});
