import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { COLLECTION_LINK_MESSAGES, type CollectionLink } from '@takes/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { stubApi } from '../repos/test-support';
import { parseRecipients, TOO_MANY_RECIPIENTS } from './recipients';
import { ShareCollectionDialog } from './share-collection-dialog';

/** A link as the server answers it, fresh (no receipts, no comments). */
function link(overrides: Partial<CollectionLink> = {}): CollectionLink {
  return {
    id: 'l1',
    key: 'k1',
    url: '/share/k1',
    name: 'Road trip',
    recipient: null,
    expires_at: null,
    download_enabled: false,
    has_password: false,
    revoked: false,
    created_at: '2026-02-01T12:00:00.000Z',
    receipts: [],
    emailed: false,
    comments: [],
    ...overrides,
  };
}

let writeText: ReturnType<typeof vi.fn>;

beforeEach(() => {
  writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Serves POST /api/collections/c1/links with `answer` (the created links by default). */
function stubCreate(answer: unknown = { status: 201, body: { links: [link()] } }) {
  return stubApi({
    '/api/collections/c1/links': (_url: URL, init: RequestInit | undefined) =>
      init?.method === 'POST' ? answer : { links: [] },
  });
}

function postedBodies(fetchMock: ReturnType<typeof stubApi>): unknown[] {
  return fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([, init]) => JSON.parse(init!.body as string) as unknown);
}

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const onClose = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  render(<ShareCollectionDialog collectionId="c1" collectionName="Road trip" onClose={onClose} />, {
    wrapper,
  });
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Share collection' }) };
}

const recipientsBox = () =>
  screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Recipients' });
const emailBox = () =>
  screen.getByRole<HTMLInputElement>('checkbox', { name: 'Email each recipient their link' });

describe('parseRecipients', () => {
  it('reads "Name <email>", "Name, email" and a bare name, skipping blank lines', () => {
    expect(
      parseRecipients('Ana Silva <ana@example.com>\n\n  Ben Okoro, ben@example.com  \r\nCleo\n'),
    ).toEqual({
      recipients: [
        { name: 'Ana Silva', email: 'ana@example.com' },
        { name: 'Ben Okoro', email: 'ben@example.com' },
        { name: 'Cleo' },
      ],
      errors: [],
      lines: 3,
    });
    expect(parseRecipients('Dee,')).toEqual({
      recipients: [{ name: 'Dee' }],
      errors: [],
      lines: 1,
    });
    expect(parseRecipients('   \n')).toEqual({ recipients: [], errors: [], lines: 0 });
    expect(parseRecipients('"Silva, Ana" <ana@example.com>').recipients).toEqual([
      { name: 'Silva, Ana', email: 'ana@example.com' },
    ]);
  });

  it("words each bad line in the product's words, numbered as the box shows it", () => {
    const parsed = parseRecipients(
      [
        'Ana <ana@example.com>',
        '<ben@example.com>',
        'Cleo <cleo at example>',
        '',
        ', dee@example.com',
        'eve@example.com',
        'Fay <fay@example.com',
        'Gus, gus@',
        'Hal <>',
      ].join('\n'),
    );
    expect(parsed.recipients).toEqual([{ name: 'Ana', email: 'ana@example.com' }]);
    expect(parsed.errors).toEqual([
      `Line 2: ${COLLECTION_LINK_MESSAGES.recipientNameRequired}`,
      'Line 3: that email address does not look right.',
      `Line 5: ${COLLECTION_LINK_MESSAGES.recipientNameRequired}`,
      `Line 6: ${COLLECTION_LINK_MESSAGES.recipientNameRequired}`,
      'Line 7: that email address does not look right.',
      'Line 8: that email address does not look right.',
      'Line 9: that email address does not look right.',
    ]);
    expect(parsed.lines).toBe(8);
  });

  it('refuses a name over 100 characters and more than 50 recipients', () => {
    expect(parseRecipients(`ok\n${'x'.repeat(101)}`).errors).toEqual([
      "Line 2: a recipient's name can be at most 100 characters.",
    ]);
    const many = Array.from({ length: 51 }, (_, i) => `Person ${i}`).join('\n');
    expect(parseRecipients(many).errors).toEqual([TOO_MANY_RECIPIENTS]);
    expect(parseRecipients(many.split('\n').slice(0, 50).join('\n')).errors).toEqual([]);
  });
});

describe('ShareCollectionDialog', () => {
  it("starts on the link name (the collection's name) and makes one link", async () => {
    const fetchMock = stubCreate();
    renderDialog();
    const name = screen.getByRole<HTMLInputElement>('textbox', { name: 'Link name' });
    expect(name.value).toBe('Road trip');
    expect(document.activeElement).toBe(name);
    expect(screen.getByText('Leave blank to never expire')).toBeTruthy();
    expect(emailBox().disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    const url = `${window.location.origin}/share/k1`;
    const field = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Share URL' });
    expect(field.value).toBe(url);
    expect(postedBodies(fetchMock)).toEqual([{ name: 'Road trip', download_enabled: false }]);
    expect(screen.getByText('Link created.')).toBeTruthy();

    const copy = screen.getByRole('button', { name: 'Copy' });
    expect(document.activeElement).toBe(copy);
    fireEvent.click(copy);
    await waitFor(() => expect(copy.textContent).toBe('Copied!'));
    expect(writeText).toHaveBeenCalledWith(url);
  });

  it('sends the expiry (end of the chosen day), downloads and a renamed link', async () => {
    const fetchMock = stubCreate();
    renderDialog();
    fireEvent.change(screen.getByRole('textbox', { name: 'Link name' }), {
      target: { value: '  For the label  ' },
    });
    fireEvent.change(screen.getByLabelText(/Expiration date/), { target: { value: '2099-05-01' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Allow downloads' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await screen.findByRole('textbox', { name: 'Share URL' });
    expect(postedBodies(fetchMock)).toEqual([
      {
        name: 'For the label',
        expires_at: new Date('2099-05-01T23:59:59.999').toISOString(),
        download_enabled: true,
      },
    ]);
  });

  it('makes one link per recipient with a password and the emails, and shows both addresses', async () => {
    const fetchMock = stubCreate({
      status: 201,
      body: {
        links: [
          link({
            id: 'l1',
            key: 'k-ana',
            url: '/share/k-ana',
            recipient: { name: 'Ana Silva', email: 'ana@example.com' },
            has_password: true,
            emailed: true,
          }),
          link({
            id: 'l2',
            key: 'k-ben',
            url: '/share/k-ben',
            recipient: { name: 'Ben', email: 'ben@example.com' },
            has_password: true,
            emailed: false,
          }),
        ],
      },
    });
    renderDialog();
    fireEvent.change(screen.getByLabelText('Password (optional)'), {
      target: { value: 'open sesame' },
    });
    expect(emailBox().disabled).toBe(true);
    fireEvent.change(recipientsBox(), { target: { value: 'Ben' } });
    // A name alone cannot be emailed.
    expect(emailBox().disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Create link' })).toBeTruthy();
    fireEvent.change(recipientsBox(), {
      target: { value: 'Ana Silva <ana@example.com>\n\nBen, ben@example.com' },
    });
    expect(emailBox().disabled).toBe(false);
    fireEvent.click(emailBox());
    expect(emailBox().checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Create links' }));

    const ana = await screen.findByRole<HTMLInputElement>('textbox', {
      name: 'Ana Silva <ana@example.com>',
    });
    const ben = screen.getByRole<HTMLInputElement>('textbox', { name: 'Ben <ben@example.com>' });
    expect(ana.value).toBe(`${window.location.origin}/share/k-ana`);
    expect(ben.value).toBe(`${window.location.origin}/share/k-ben`);
    expect(postedBodies(fetchMock)).toEqual([
      {
        name: 'Road trip',
        download_enabled: false,
        password: 'open sesame',
        recipients: [
          { name: 'Ana Silva', email: 'ana@example.com' },
          { name: 'Ben', email: 'ben@example.com' },
        ],
        email_recipients: true,
      },
    ]);
    expect(screen.getByText('2 links created. Emailed to 1 recipient.')).toBeTruthy();
    expect(screen.getByText('Emailed to ana@example.com')).toBeTruthy();
    expect(screen.getByText('Not emailed: copy the link and send it yourself.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Copy link for Ben' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(ben.value));
    expect(screen.getByRole('button', { name: 'Copied! link for Ben' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy link for Ana Silva' })).toBeTruthy();
  });

  it('sends no email_recipients flag when the owner leaves the box unticked', async () => {
    const fetchMock = stubCreate();
    renderDialog();
    fireEvent.change(recipientsBox(), { target: { value: 'Ana <ana@example.com>' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await screen.findByText('Link created.');
    expect(postedBodies(fetchMock)).toEqual([
      {
        name: 'Road trip',
        download_enabled: false,
        recipients: [{ name: 'Ana', email: 'ana@example.com' }],
        email_recipients: false,
      },
    ]);
  });

  it('refuses a short password before sending anything, and clears once it is long enough', () => {
    const fetchMock = stubCreate();
    renderDialog();
    const password = screen.getByLabelText<HTMLInputElement>('Password (optional)');
    fireEvent.change(password, { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    expect(screen.getByText(COLLECTION_LINK_MESSAGES.passwordTooShort)).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(password);
    expect(postedBodies(fetchMock)).toEqual([]);

    fireEvent.change(password, { target: { value: 'long enough' } });
    expect(screen.queryByText(COLLECTION_LINK_MESSAGES.passwordTooShort)).toBeNull();
    expect(password.getAttribute('aria-invalid')).toBeNull();
  });

  it('shows each bad recipient line and a missing name, sending nothing', () => {
    const fetchMock = stubCreate();
    renderDialog();
    fireEvent.change(screen.getByRole('textbox', { name: 'Link name' }), {
      target: { value: '  ' },
    });
    fireEvent.change(recipientsBox(), {
      target: { value: 'Ana <ana@example.com>\n<ben@example.com>\nCleo, not-an-address' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create links' }));
    expect(screen.getByText(COLLECTION_LINK_MESSAGES.nameRequired)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Link name' }));
    const box = recipientsBox();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    const described = (box.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | ');
    expect(described).toContain(`Line 2: ${COLLECTION_LINK_MESSAGES.recipientNameRequired}`);
    expect(described).toContain('Line 3: that email address does not look right.');
    expect(postedBodies(fetchMock)).toEqual([]);

    fireEvent.change(screen.getByRole('textbox', { name: 'Link name' }), {
      target: { value: 'Road trip' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create links' }));
    expect(document.activeElement).toBe(box);
    expect(postedBodies(fetchMock)).toEqual([]);
  });

  it("shows the server's refusal and keeps every field as it was", async () => {
    const fetchMock = stubCreate({ status: 400, body: { error: 'The mailer is not set up.' } });
    renderDialog();
    fireEvent.change(screen.getByRole('textbox', { name: 'Link name' }), {
      target: { value: 'For Ana' },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Allow downloads' }));
    fireEvent.change(screen.getByLabelText('Password (optional)'), {
      target: { value: 'open sesame' },
    });
    fireEvent.change(recipientsBox(), { target: { value: 'Ana <ana@example.com>' } });
    fireEvent.click(emailBox());
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));

    expect((await screen.findByRole('alert')).textContent).toBe('The mailer is not set up.');
    expect(postedBodies(fetchMock)).toHaveLength(1);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Link name' }).value).toBe(
      'For Ana',
    );
    expect(
      screen.getByRole<HTMLInputElement>('checkbox', { name: 'Allow downloads' }).checked,
    ).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Password (optional)').value).toBe(
      'open sesame',
    );
    expect(recipientsBox().value).toBe('Ana <ana@example.com>');
    expect(emailBox().checked).toBe(true);
    expect(screen.queryByRole('textbox', { name: 'Share URL' })).toBeNull();
  });

  it("'Create another' starts a fresh form; Cancel and Close close", async () => {
    stubCreate();
    const { onClose, dialog } = renderDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.change(recipientsBox(), { target: { value: 'Ana' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Create another' }));
    expect(recipientsBox().value).toBe('');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Link name' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('has no axe violations, with errors showing and with links made', async () => {
    stubCreate();
    renderDialog();
    fireEvent.change(screen.getByLabelText('Password (optional)'), { target: { value: 'short' } });
    fireEvent.change(recipientsBox(), { target: { value: 'Ana <nope>' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    expect(await axeViolations()).toEqual([]);
    fireEvent.change(screen.getByLabelText('Password (optional)'), { target: { value: '' } });
    fireEvent.change(recipientsBox(), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await screen.findByRole('textbox', { name: 'Share URL' });
    expect(await axeViolations()).toEqual([]);
  });
});
