import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Collection } from '@takes/contract';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../repos/test-support';
import { collectionKeys, useCollection } from './collections-api';
import { available, collection } from './test-support';
import { moveItem, useReorderCollection } from './use-reorder-collection';

afterEach(() => {
  vi.unstubAllGlobals();
});

const three = () => collection([available('a'), available('b'), available('c')]);
const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

describe('moveItem', () => {
  it('moves one item and renumbers the positions; nothing for a move to nowhere', () => {
    const moved = moveItem(three().items, 'c', (from) => from - 2);
    expect(moved?.to).toBe(0);
    expect(moved?.item.id).toBe('c');
    expect(moved?.items.map((item) => [item.id, item.position])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
    ]);
    expect(moveItem(three().items, 'a', (from) => from - 1)).toBeNull();
    expect(moveItem(three().items, 'c', (from) => from + 1)).toBeNull();
    expect(moveItem(three().items, 'b', (from) => from)).toBeNull();
    expect(moveItem(three().items, 'x', () => 0)).toBeNull();
  });
});

describe('useReorderCollection', () => {
  /** The hook over a cached collection, with PUT /order answers the test releases one by one. */
  function setup() {
    const answers: ((status: number) => void)[] = [];
    const fetchMock = stubApi({
      '/api/collections/c1': () => three(),
      '/api/collections/c1/order': (_url: URL, init: RequestInit | undefined) =>
        new Promise<Response>((resolve) => {
          const { item_ids: itemIds } = JSON.parse(init!.body as string) as { item_ids: string[] };
          const saved = collection(itemIds.map((id) => available(id)));
          answers.push((status) =>
            resolve(
              new Response(JSON.stringify(status === 200 ? saved : { error: 'No' }), { status }),
            ),
          );
        }),
    });
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: Infinity } },
    });
    client.setQueryData(collectionKeys.one('c1'), three());
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    // The page shows the collection (an active query, which a reload refetches) and reorders it.
    const view = renderHook(
      () => {
        useCollection('c1');
        return useReorderCollection(three());
      },
      { wrapper },
    );
    return {
      view,
      answers,
      shown: () => ids(client.getQueryData<Collection>(collectionKeys.one('c1'))!.items),
      reloads: () =>
        fetchMock.mock.calls.filter(
          ([url, init]) => url.endsWith('/c1') && (init?.method ?? 'GET') === 'GET',
        ).length,
    };
  }

  it('shows each move at once, and reloads only once the last of quick moves has settled', async () => {
    const hook = setup();
    act(() => {
      hook.view.result.current.move('c', (from) => from - 1);
      hook.view.result.current.move('c', (from) => from - 1);
    });
    // The second move started from the first's order, before any re-render.
    expect(hook.shown()).toEqual(['c', 'a', 'b']);
    await waitFor(() => expect(hook.answers).toHaveLength(2));

    act(() => hook.answers[0]!(200));
    await act(() => Promise.resolve());
    // The first answer is older than what is shown: neither applied nor reloaded.
    expect(hook.shown()).toEqual(['c', 'a', 'b']);
    expect(hook.reloads()).toBe(0);

    act(() => hook.answers[1]!(200));
    await waitFor(() => expect(hook.reloads()).toBe(1));
    expect(hook.view.result.current.error).toBeNull();
  });

  it('rolls a refused move back with an error line', async () => {
    const hook = setup();
    act(() => void hook.view.result.current.move('a', (from) => from + 1));
    expect(hook.shown()).toEqual(['b', 'a', 'c']);
    await waitFor(() => expect(hook.answers).toHaveLength(1));
    act(() => hook.answers[0]!(500));
    await waitFor(() => expect(hook.view.result.current.error).toBe('No'));
    expect(hook.shown()).toEqual(['a', 'b', 'c']);
  });
});
