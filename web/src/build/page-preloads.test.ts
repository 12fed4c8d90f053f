// @vitest-environment node
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lazyPagesOf, pagePreloads, type ChunkInfo } from './page-preloads';

const routerSource = fs.readFileSync(new URL('../app/router.tsx', import.meta.url), 'utf8');

describe('lazyPagesOf', () => {
  it('finds every lazy page of the router with its module', () => {
    const pages = lazyPagesOf(routerSource);
    const calls = routerSource.match(/\blazyRoute\(/g)!.length - 1; // less its declaration
    expect(pages).toHaveLength(calls);
    expect(pages).toContainEqual({ path: '/login', module: '../features/auth/login-page' });
    expect(pages).toContainEqual({
      path: '/projects/:projectId',
      module: '../features/projects/project-page',
    });
    expect(pages).toContainEqual({ path: '/share/:hash', module: '../features/share/share-page' });
    expect(new Set(pages.map((p) => p.path)).size).toBe(pages.length);
  });

  it('fails on a route it does not understand, rather than leaving it out', () => {
    expect(() => lazyPagesOf(`${routerSource}\nlazyRoute(somePath, OtherPage);`)).toThrow(
      /understood/,
    );
    expect(() => lazyPagesOf(`lazyRoute('/x', MissingPage);`)).toThrow(/MissingPage/);
  });
});

describe('pagePreloads', () => {
  const chunk = (
    fileName: string,
    imports: string[],
    extra: Partial<ChunkInfo> = {},
  ): ChunkInfo => ({
    fileName,
    imports,
    facadeModuleId: null,
    isEntry: false,
    moduleIds: [],
    ...extra,
  });
  const chunks = [
    chunk('assets/main.js', ['assets/index.js'], {
      isEntry: true,
      facadeModuleId: '/w/index.html',
    }),
    chunk('assets/index.js', []),
    chunk('assets/login-page.js', ['assets/index.js', 'assets/form.js'], {
      facadeModuleId: '/w/src/features/auth/login-page.tsx',
    }),
    chunk('assets/form.js', ['assets/schemas.js', 'assets/index.js']),
    chunk('assets/schemas.js', []),
    chunk('assets/share.js', ['assets/index.js'], {
      isEntry: true,
      moduleIds: ['/w/src/features/share/share-page.tsx'],
    }),
  ];
  const resolve = (specifier: string) => `/w/src/app/${specifier}.tsx`.replace('/app/../', '/');

  it("lists a page's chunk and everything it imports, less what the entry loads", () => {
    expect(
      pagePreloads(
        [
          { path: '/login', module: '../features/auth/login-page' },
          { path: '/share/:hash', module: '../features/share/share-page' },
        ],
        chunks,
        'assets/main.js',
        resolve,
      ),
    ).toEqual([
      { path: '/login', files: ['assets/login-page.js', 'assets/form.js', 'assets/schemas.js'] },
      { path: '/share/:hash', files: ['assets/share.js'] },
    ]);
  });

  it('fails for a page the build has no chunk for', () => {
    expect(() =>
      pagePreloads(
        [{ path: '/x', module: '../features/x/x-page' }],
        chunks,
        'assets/main.js',
        resolve,
      ),
    ).toThrow(/no chunk/);
  });
});
