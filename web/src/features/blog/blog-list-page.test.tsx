import type { BlogPostMeta } from '@takes/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { BlogListPage } from './blog-list-page';
import { BlogPostPage } from './blog-post-page';

let fetchMock: Mock<typeof fetch>;

const posts: BlogPostMeta[] = [
  {
    slug: 'newer',
    title: 'Why your mixes need branches',
    date: '2026-09-14',
    description: 'Branches keep ideas apart.',
    tags: ['workflow', 'branches'],
    hero: '/blog/branches.svg',
  },
  {
    slug: 'older',
    title: 'Timestamped feedback',
    date: '2026-08-01',
    description: 'Comments pinned to the second.',
    tags: ['feedback'],
    hero: null,
  },
];

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/blog" element={<BlogListPage />} />
          <Route path="/blog/:slug" element={<BlogPostPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function respond(status: number, body: unknown) {
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status }));
}

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('BlogListPage', () => {
  it('lists the posts in the order the server gives, with date, description and tags', async () => {
    respond(200, { posts });
    renderAt('/blog');
    const links = await screen.findAllByRole('link');
    const titles = links.map((link) => link.textContent);
    expect(titles).toEqual(['Why your mixes need branches', 'Timestamped feedback']);
    expect(links[0]?.getAttribute('href')).toBe('/blog/newer');
    expect(screen.getByText('Sep 14, 2026')).toBeTruthy();
    expect(screen.getByText('Branches keep ideas apart.')).toBeTruthy();
    expect(screen.getByText('branches')).toBeTruthy();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/blog');
  });

  it('says so when there are no posts', async () => {
    respond(200, { posts: [] });
    renderAt('/blog');
    expect(await screen.findByText('No blog posts found.')).toBeTruthy();
  });

  it('reports a failure to load', async () => {
    respond(500, { error: 'boom' });
    renderAt('/blog');
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load blog posts');
  });
});

describe('BlogPostPage', () => {
  it('renders the post as Markdown without raw HTML', async () => {
    respond(200, {
      post: {
        ...posts[0],
        markdown:
          '## A heading\n\nSome **bold** text and a [link](/features).\n\n<script>window.hacked = true</script><b>raw</b>',
      },
    });
    renderAt('/blog/newer');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Why your mixes need branches' }),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'A heading' })).toBeTruthy();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getByRole('link', { name: 'link' }).getAttribute('href')).toBe('/features');
    expect(document.querySelector('script')).toBeNull();
    expect(document.querySelector('article b')).toBeNull();
    expect(screen.getAllByRole('link', { name: /Back to all posts/ }).length).toBeGreaterThan(0);
    expect(document.querySelector('img')?.getAttribute('src')).toBe('/blog/branches.svg');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/blog/newer');
  });

  it("says 'Post not found' for a 404", async () => {
    respond(404, { error: 'Post not found' });
    renderAt('/blog/missing');
    expect((await screen.findByRole('alert')).textContent).toBe('Post not found');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("says 'Failed to load post' for other failures", async () => {
    // A failure other than 404 is retried once before the message shows.
    fetchMock.mockImplementation(() =>
      Promise.resolve(new Response(JSON.stringify({ error: 'boom' }), { status: 500 })),
    );
    renderAt('/blog/broken');
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert.textContent).toBe('Failed to load post');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
