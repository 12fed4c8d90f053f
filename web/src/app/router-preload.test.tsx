import { describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('../features/dashboard/dashboard-page', () => {
  loaded.push('dashboard');
  return { DashboardPage: () => null };
});
vi.mock('../features/projects/project-page', () => {
  loaded.push('project');
  return { ProjectPage: () => null };
});
vi.mock('../features/auth/login-page', () => {
  loaded.push('login');
  return { LoginPage: () => null };
});

import { preloadPage } from './router';

describe('preloadPage', () => {
  it("starts loading the opened page's chunk before anything renders, and only that one", async () => {
    // The landing page is part of the entry: nothing to load.
    preloadPage('/');
    preloadPage('/dashboard');
    await vi.waitFor(() => expect(loaded).toEqual(['dashboard']));
    preloadPage('/projects/4f1c2b9e-0000-4000-8000-000000000000');
    await vi.waitFor(() => expect(loaded).toEqual(['dashboard', 'project']));
  });
});
