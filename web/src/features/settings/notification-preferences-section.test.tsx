import { DEFAULT_NOTIFICATION_CHANNELS } from '@takes/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { renderAt, stubApi } from '../repos/test-support';
import { NotificationPreferencesSection } from './notification-preferences-section';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderSection(answerPut: (body: unknown) => unknown) {
  const fetchMock = stubApi({
    '/api/notifications/preferences': (_url: URL, init: RequestInit | undefined) =>
      init?.method === 'PUT'
        ? answerPut(JSON.parse(init.body as string))
        : DEFAULT_NOTIFICATION_CHANNELS,
  });
  renderAt(<NotificationPreferencesSection />, { pattern: '/settings', url: '/settings' });
  const puts = () =>
    fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'PUT')
      .map(([, init]) => JSON.parse(init?.body as string) as unknown);
  return { puts };
}

const group = (name: string) => screen.getByRole('group', { name });
const checked = (name: string) =>
  within(group(name))
    .getAllByRole('radio')
    .filter((radio) => (radio as HTMLInputElement).checked)
    .map((radio) => radio.closest('label')?.textContent);

describe('Settings: Notifications', () => {
  it("shows each kind's channel as the server returns it; axe clean", async () => {
    renderSection((body) => body);
    expect(screen.getByRole('heading', { name: 'Notifications' })).toBeTruthy();
    await screen.findByRole('group', { name: 'Comments and replies' });
    expect(checked('Comments and replies')).toEqual(['Email and in-app']);
    expect(checked('New versions')).toEqual(['In-app only']);
    expect(checked('Membership')).toEqual(['In-app only']);
    expect(checked('Processing')).toEqual(['In-app only']);
    expect(
      within(group('Processing'))
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['Email and in-app', 'In-app only', 'Off']);
    expect(await axeViolations()).toEqual([]);
  });

  it('saves a choice with every kind in the PUT body', async () => {
    const { puts } = renderSection((body) => body);
    await screen.findByRole('group', { name: 'New versions' });
    fireEvent.click(within(group('New versions')).getByRole('radio', { name: 'Off' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(puts()).toEqual([
      { comments: 'email_and_in_app', versions: 'off', membership: 'in_app', processing: 'in_app' },
    ]);
    expect(checked('New versions')).toEqual(['Off']);

    fireEvent.click(
      within(group('Comments and replies')).getByRole('radio', { name: 'In-app only' }),
    );
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]).toEqual({
      comments: 'in_app',
      versions: 'off',
      membership: 'in_app',
      processing: 'in_app',
    });
  });

  it('a failed save says so and shows the saved choice again', async () => {
    renderSection(() => ({ status: 500, body: { error: 'Could not save' } }));
    await screen.findByRole('group', { name: 'Membership' });
    fireEvent.click(within(group('Membership')).getByRole('radio', { name: 'Off' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Could not save');
    expect(checked('Membership')).toEqual(['In-app only']);
  });
});
