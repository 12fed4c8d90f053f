import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShareCollectionForm } from '../collections/share-collection-form';
import { expiryDateIn } from './link-defaults';
import { QuickShareDialog } from './quick-share-dialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function stubDefaults(defaults: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        new Response(JSON.stringify(url === '/api/link-defaults' ? defaults : []), { status: 200 }),
      ),
    ),
  );
}

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient();
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe("the share dialogs start from the instance's link defaults", () => {
  it('counts the expiry days from today', () => {
    expect(expiryDateIn(null)).toBe('');
    expect(expiryDateIn(7, new Date(2026, 11, 28, 15, 0))).toBe('2027-01-04');
  });

  it('Quick Share starts with downloads allowed and the expiry a week away', async () => {
    stubDefaults({ expires_in_days: 7, allow_downloads: true });
    render(
      <QuickShareDialog
        open
        onClose={() => undefined}
        versionId="v3"
        projectName="Night Drive"
        versionNumber={3}
      />,
      { wrapper },
    );
    const downloads = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Allow Download' });
    await waitFor(() => expect(downloads.checked).toBe(true));
    const expiry = screen.getByLabelText<HTMLInputElement>(/Expiration date/);
    expect(expiry.value).toBe(expiryDateIn(7));
  });

  it("'Share collection' starts from them too, and from none when they cannot be read", async () => {
    stubDefaults({ expires_in_days: 30, allow_downloads: true });
    const props = {
      focusOnMount: false,
      collectionName: 'Demos',
      pending: false,
      error: null,
      onCancel: () => undefined,
      onSubmit: () => undefined,
    };
    const view = render(<ShareCollectionForm {...props} />, { wrapper });
    const downloads = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Allow downloads' });
    await waitFor(() => expect(downloads.checked).toBe(true));
    expect(screen.getByLabelText<HTMLInputElement>(/Expiration date/).value).toBe(expiryDateIn(30));
    view.unmount();

    stubDefaults({ error: 'Not found' });
    render(<ShareCollectionForm {...props} />, { wrapper });
    expect(
      screen.getByRole<HTMLInputElement>('checkbox', { name: 'Allow downloads' }).checked,
    ).toBe(false);
    expect(screen.getByLabelText<HTMLInputElement>(/Expiration date/).value).toBe('');
  });
});
