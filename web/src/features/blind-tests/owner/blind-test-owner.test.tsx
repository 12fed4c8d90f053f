import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BLIND_TEST_MESSAGES, type BlindTest, type BlindTestResults } from '@takes/contract';
import { axeViolations } from '../../../ui/axe-test-support';
import { BlindTestDialog } from './blind-test-dialog';
import { BlindTestResultsPage } from './blind-test-results-page';

const version = (id: string, n: number, branch_id: string) => ({
  id,
  project_id: 'p1',
  branch_id,
  version_number: n,
  message: `Mix ${n}`,
  tags: [],
  status: 'completed',
  created_at: '2026-11-01T00:00:00.000Z',
});
const branches = [
  { id: 'b1', name: 'main', versions: [version('v1', 1, 'b1'), version('v2', 2, 'b1')] },
  { id: 'b2', name: 'alt', versions: [version('v3', 1, 'b2')] },
];
const labels = { v1: 'Version 1 · main', v2: 'Version 2 · main', v3: 'Version 1 · alt' };
const test: BlindTest = {
  id: 't1',
  project_id: 'p1',
  name: 'Night Drive blind test',
  mode: 'both',
  trials: 10,
  reveal_after_voting: true,
  status: 'ready',
  expires_at: null,
  has_password: false,
  revoked: false,
  created_at: '2026-11-01T00:00:00.000Z',
  versions: (['v1', 'v2'] as const).map((id, i) => ({
    id,
    version_number: i + 1,
    branch_name: 'main',
    label: labels[id],
  })),
  url: 'http://localhost/share/KeyOne',
  links: [
    {
      id: 'l1',
      key: 'KeyOne',
      url: 'http://localhost/share/KeyOne',
      recipient: null,
      opened: 3,
      voted: 2,
      last_activity_at: null,
    },
  ],
};
const results: BlindTestResults = {
  test,
  preference: {
    votes: [
      {
        version: test.versions[0]!,
        count: 2,
        voters: [
          { name: 'Ana', note: 'Warmer', voted_at: '2026-11-01T00:00:00.000Z' },
          { name: 'Ben', note: null, voted_at: '2026-11-01T00:00:00.000Z' },
        ],
      },
      { version: test.versions[1]!, count: 0, voters: [] },
    ],
    total: 2,
    winner_version_id: 'v1',
  },
  abx: {
    correct: 9,
    total: 10,
    p_value: 0.0107,
    verdict: '9 of 10 correct, p = 0.011: they can hear the difference',
    heard: true,
    listeners: [
      {
        name: 'Ana',
        finished: true,
        correct: 9,
        total: 10,
        p_value: 0.0107,
        verdict: '9 of 10 correct, p = 0.011: they can hear the difference',
        heard: true,
      },
    ],
  },
  summary: 'Version 1 · main is preferred by 2 of 2 listeners.',
};

let fetchMock: ReturnType<typeof vi.fn>;
const bodyOf = (method: string, path: string) => {
  const call = (fetchMock.mock.calls as [string, RequestInit | undefined][]).find(
    ([url, init]) => init?.method === method && url.startsWith(path),
  );
  return call ? (JSON.parse(call[1]?.body as string) as Record<string, unknown>) : undefined;
};

beforeEach(() => {
  fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const json = (body: unknown, status = 200) =>
      Promise.resolve(new Response(JSON.stringify(body), { status }));
    if (url.startsWith('/api/projects/p1/branches')) return json(branches);
    if (url === '/api/projects/p1/blind-tests' && init?.method === 'POST') return json(test, 201);
    if (url === '/api/blind-tests/t1/results') return json(results);
    if (url === '/api/blind-tests/t1/winner')
      return json({ status: 'approved', changed_at: null, changed_by: 'Olivia' });
    return json({ error: 'Not found', code: 'not_found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function wrap(ui: ReactNode, path = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the owner makes a blind test', () => {
  it('picks versions on any branch, checks the mode, and shows the link', async () => {
    const onClose = vi.fn();
    const view = wrap(
      <BlindTestDialog
        projectId="p1"
        projectName="Night Drive"
        initial={['v1']}
        onClose={onClose}
      />,
    );
    const third = await screen.findByRole('checkbox', { name: /Version 1 · alt/ });
    expect(
      screen.getByRole<HTMLInputElement>('checkbox', { name: /Version 1 · main/ }).checked,
    ).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: /Version 2 · main/ }));
    fireEvent.click(third);
    // ABX compares two: three ticked is refused before anything is sent.
    fireEvent.change(screen.getByRole('combobox', { name: 'Mode' }), { target: { value: 'both' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make blind test' }));
    expect(await screen.findByText(BLIND_TEST_MESSAGES.abxTwo)).toBeTruthy();
    fireEvent.click(third);
    fireEvent.change(screen.getByRole('spinbutton', { name: /Trials/ }), {
      target: { value: '12' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Make blind test' }));
    const link = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Link' });
    expect(link.value).toBe(test.url);
    expect(bodyOf('POST', '/api/projects/p1/blind-tests')).toMatchObject({
      version_ids: ['v1', 'v2'],
      mode: 'both',
      trials: 12,
      name: 'Night Drive blind test',
      reveal_after_voting: true,
    });
    expect(screen.getByRole('link', { name: 'See results' }).getAttribute('href')).toBe(
      '/projects/p1/blind-tests/t1',
    );
    expect(await axeViolations(view.container)).toEqual([]);
  });
});

describe('the results page', () => {
  it('shows the votes, the ABX verdict and marks the winner Approved', async () => {
    const view = wrap(
      <Routes>
        <Route path="/projects/:projectId/blind-tests/:testId" element={<BlindTestResultsPage />} />
      </Routes>,
      '/projects/p1/blind-tests/t1',
    );
    expect(await screen.findByRole('heading', { level: 1, name: test.name })).toBeTruthy();
    expect(screen.getByText(results.summary)).toBeTruthy();
    expect(screen.getByText('Version 1 · main: 2 votes')).toBeTruthy();
    expect(screen.getByText('Ana: “Warmer”')).toBeTruthy();
    expect(
      screen.getByText('All listeners: 9 of 10 correct, p = 0.011: they can hear the difference'),
    ).toBeTruthy();
    expect(screen.getByRole('cell', { name: '0.011' })).toBeTruthy();
    expect(screen.getByText(/Opened by 3, voted 2/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Mark the winner Approved' }));
    await waitFor(() =>
      expect(bodyOf('POST', '/api/blind-tests/t1/winner')).toEqual({ version_id: 'v1' }),
    );
    expect(await screen.findByText('Version 1 · main is Approved.')).toBeTruthy();
    expect(await axeViolations(view.container)).toEqual([]);
  });
});
