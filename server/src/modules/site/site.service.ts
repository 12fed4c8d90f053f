import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  CONTACT_MESSAGES,
  DESKTOP_PLATFORMS,
  type BlogPostMeta,
  type DesktopPlatform,
} from '@takes/contract';
import type { RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { Invalid, NotFound, RateLimited, Unavailable } from '../../errors';
import type { SiteRepo } from './site.repo';

export const CONTACT_RATE = { name: 'contact:ip', limit: 5, windowMs: 60 * 60 * 1000 };

export interface ContactInput {
  topic: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  role?: string | undefined;
  company_name?: string | undefined;
  artists_represented?: string | undefined;
}

export interface BlogPost extends BlogPostMeta {
  markdown: string;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

/** The public site's server work: contact messages, desktop installers, blog posts. */
export class SiteService {
  constructor(
    private readonly deps: {
      repo: SiteRepo;
      clock: Clock;
      limiter: RateLimiter;
      config: Pick<Config, 'blogDir' | 'desktopDownloads'>;
    },
  ) {}

  async contact(input: ContactInput, ip: string): Promise<string> {
    if (!(await this.deps.limiter.hit(CONTACT_RATE, ip)))
      throw new RateLimited(CONTACT_MESSAGES.tooMany);
    const id = randomUUID();
    await this.deps.repo.insertContactMessage({
      id,
      topic: input.topic,
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      role: input.role ?? null,
      company_name: input.company_name ?? null,
      artists_represented: input.artists_represented ?? null,
      user_id: null,
      created_at: this.deps.clock.now().toISOString(),
    });
    return id;
  }

  /** The installer URL for a platform: the releases file first, then the environment. */
  async latestDesktop(
    platform: string,
  ): Promise<{ platform: DesktopPlatform; url: string; version: string | null }> {
    if (!(DESKTOP_PLATFORMS as readonly string[]).includes(platform))
      throw new Invalid('Unknown platform: use mac, win or linux');
    const known = platform as DesktopPlatform;
    const { releasesFile, urls, version } = this.deps.config.desktopDownloads;
    if (releasesFile) {
      let releases: Partial<Record<DesktopPlatform, { url?: unknown; version?: unknown }>>;
      try {
        releases = JSON.parse(await fsp.readFile(releasesFile, 'utf8')) as typeof releases;
      } catch {
        throw new Unavailable('failed');
      }
      const entry = releases[known];
      if (typeof entry?.url === 'string' && /^https?:\/\//.test(entry.url))
        return {
          platform: known,
          url: entry.url,
          version: typeof entry.version === 'string' ? entry.version : (version ?? null),
        };
    }
    const url = urls[known];
    if (url) return { platform: known, url, version: version ?? null };
    throw new NotFound('no_url');
  }

  async posts(): Promise<BlogPostMeta[]> {
    let files: string[];
    try {
      files = await fsp.readdir(this.deps.config.blogDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const posts: BlogPostMeta[] = [];
    for (const file of files.filter((f) => f.endsWith('.md')).sort()) {
      const post = await this.read(file.slice(0, -3));
      if (post) {
        const { markdown: _body, ...meta } = post;
        posts.push(meta);
      }
    }
    return posts.sort((a, b) =>
      a.date < b.date ? 1 : a.date > b.date ? -1 : a.slug < b.slug ? -1 : 1,
    );
  }

  async post(slug: string): Promise<BlogPost> {
    const post = SLUG.test(slug) ? await this.read(slug) : undefined;
    if (!post) throw new NotFound('Post not found');
    return post;
  }

  private async read(slug: string): Promise<BlogPost | undefined> {
    if (!SLUG.test(slug)) return undefined;
    let text: string;
    try {
      text = await fsp.readFile(path.join(this.deps.config.blogDir, `${slug}.md`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return parsePost(slug, text);
  }
}

/**
 * A post file: front matter between `---` lines (title, date, description, tags, hero as
 * `key: value`, tags as `[a, b]`), then Markdown. A file without a title or a valid date is
 * not published.
 */
export function parsePost(slug: string, text: string): BlogPost | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return undefined;
  const fields = new Map<string, string>();
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const pair = /^([A-Za-z]+):\s*(.*)$/.exec(line);
    if (pair?.[1]) fields.set(pair[1].toLowerCase(), unquote((pair[2] ?? '').trim()));
  }
  const title = fields.get('title');
  const date = fields.get('date');
  if (!title || !date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const rawTags = fields.get('tags') ?? '';
  const tags = rawTags
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((t) => unquote(t.trim()))
    .filter((t) => t.length > 0);
  const hero = fields.get('hero');
  return {
    slug,
    title,
    date,
    description: fields.get('description') ?? '',
    tags,
    // Same-origin images only: the site loads nothing from elsewhere.
    hero: hero && hero.startsWith('/') && !hero.startsWith('//') ? hero : null,
    markdown: (match[2] ?? '').trim(),
  };
}

function unquote(value: string): string {
  return value.replace(/^(['"])(.*)\1$/, '$2');
}
