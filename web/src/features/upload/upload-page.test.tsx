import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, stubApi } from '../repos/test-support';
import { project, sharedProject } from '../projects/test-support';
import { UploadPage } from './upload-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('UploadPage: New Version', () => {
  it('offers your projects and those shared with you where you are an Editor', async () => {
    stubApi({
      '/api/projects': [project()],
      '/api/projects/shared': [
        sharedProject({ id: 'p2', name: 'Band Demo', role: 'editor' }),
        sharedProject({ id: 'p3', name: 'Listen Only', role: 'viewer' }),
        sharedProject({ id: 'p4', name: 'Notes', role: 'commenter' }),
      ],
    });
    renderAt(<UploadPage />, { pattern: '/upload', url: '/upload' });
    fireEvent.click(await screen.findByRole('tab', { name: 'New Version' }));
    const select = screen.getByRole('combobox', { name: 'Select Project' });
    await within(select).findByRole('option', { name: 'Band Demo' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Select a project', 'Night Drive', 'Band Demo']);
    expect(within(select).getByRole('group', { name: 'Shared with you' })).toBeTruthy();
  });
});
