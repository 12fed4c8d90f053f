import { CONTACT_MESSAGES } from '@takes/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { ContactPage } from './contact-page';

let fetchMock: Mock<typeof fetch>;

function respond(status: number, body: unknown) {
  fetchMock.mockImplementationOnce(() =>
    Promise.resolve(new Response(JSON.stringify(body), { status })),
  );
}

function renderPage() {
  render(
    <MemoryRouter>
      <ContactPage />
    </MemoryRouter>,
  );
}

function field(name: string) {
  return screen.getByLabelText<HTMLInputElement | HTMLTextAreaElement>(name);
}

function fillRequired() {
  fireEvent.change(field('Name'), { target: { value: 'Ada Lovelace' } });
  fireEvent.change(field('Email'), { target: { value: 'ada@example.com' } });
  fireEvent.change(field('Subject'), { target: { value: 'Stems' } });
  fireEvent.change(field('Message'), { target: { value: 'Can I upload stems?' } });
}

function submit() {
  fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));
}

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ContactPage', () => {
  it('shows the required-field messages and sends nothing', () => {
    renderPage();
    submit();
    expect(screen.getByText(CONTACT_MESSAGES.nameRequired)).toBeTruthy();
    expect(screen.getByText(CONTACT_MESSAGES.emailRequired)).toBeTruthy();
    expect(screen.getByText(CONTACT_MESSAGES.subjectRequired)).toBeTruthy();
    expect(screen.getByText(CONTACT_MESSAGES.messageRequired)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('rejects an invalid email address', () => {
    renderPage();
    fillRequired();
    fireEvent.change(field('Email'), { target: { value: 'not-an-email' } });
    submit();
    expect(screen.getByText(CONTACT_MESSAGES.emailInvalid)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the thank-you alert only after the server saved the message, then resets', async () => {
    let resolveSave: (response: Response) => void = () => {};
    fetchMock.mockImplementationOnce(
      () => new Promise<Response>((resolve) => (resolveSave = resolve)),
    );
    renderPage();
    fillRequired();
    submit();

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(CONTACT_MESSAGES.thanks)).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sending…' }).disabled).toBe(true);

    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/contact');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({
      topic: 'general',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      subject: 'Stems',
      message: 'Can I upload stems?',
    });

    resolveSave(new Response(JSON.stringify({ id: 'm1', message: 'ok' }), { status: 201 }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(CONTACT_MESSAGES.thanks);
    expect(field('Name').value).toBe('');
    expect(field('Message').value).toBe('');
  });

  it('keeps every value and shows the server error in red when saving fails', async () => {
    respond(400, { error: 'Message is required' });
    renderPage();
    fillRequired();
    submit();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Message is required');
    expect(alert.className).toContain('text-red-600');
    expect(screen.queryByText(CONTACT_MESSAGES.thanks)).toBeNull();
    expect(field('Name').value).toBe('Ada Lovelace');
    expect(field('Email').value).toBe('ada@example.com');
    expect(field('Subject').value).toBe('Stems');
    expect(field('Message').value).toBe('Can I upload stems?');
  });

  it('explains a rate limit when the server answers 429 without a message', async () => {
    respond(429, {});
    renderPage();
    fillRequired();
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe(CONTACT_MESSAGES.tooMany);
    expect(field('Subject').value).toBe('Stems');
  });

  it('shows the role on the artists tab and the company fields on the labels tab', async () => {
    respond(201, { id: 'm2', message: 'ok' });
    renderPage();
    expect(screen.queryByLabelText('Role')).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Artists' }));
    expect(screen.getByLabelText('Role')).toBeTruthy();
    expect(screen.queryByLabelText('Company Name (optional)')).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Labels' }));
    expect(screen.queryByLabelText('Role')).toBeNull();
    fillRequired();
    fireEvent.change(field('Company Name (optional)'), { target: { value: 'Night Records' } });
    fireEvent.change(field('Artists Represented (optional)'), { target: { value: '12' } });
    submit();

    await screen.findByText(CONTACT_MESSAGES.thanks);
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toMatchObject({
      topic: 'labels',
      company_name: 'Night Records',
      artists_represented: '12',
    });
  });

  it('sends the chosen role from the artists tab', async () => {
    respond(201, { id: 'm3', message: 'ok' });
    renderPage();
    fireEvent.click(screen.getByRole('tab', { name: 'Artists' }));
    fillRequired();
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'producer' } });
    submit();
    await screen.findByText(CONTACT_MESSAGES.thanks);
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toMatchObject({ topic: 'artists', role: 'producer' });
  });
});
