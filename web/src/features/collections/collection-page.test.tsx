import type { Collection } from '@takes/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { fakePlayer } from '../player/test-support';
import { Landed, renderAt, stubApi } from '../repos/test-support';
import { CollectionPage } from './collection-page';
import { available, bounceItem, collection, unavailable } from './test-support';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const three = () =>
  collection(
    [available('a'), available('b', { message: null, version_number: 4 }), available('c')],
    {
      name: 'Road trip',
      description: 'For the van',
      total_duration: 270,
    },
  );

function renderCollection(player = fakePlayer()) {
  renderAt(<CollectionPage />, {
    pattern: '/collections/:id',
    url: '/collections/c1',
    player,
    routes: [{ path: '/collections', element: <Landed name="Collections page" /> }],
  });
}

/** Serves the collection, and answers PUT /order with `order` (the new order by default). */
function stubCollection(
  initial: Collection,
  order: (body: { item_ids: string[] }) => unknown = (body) => ({
    ...initial,
    items: body.item_ids.map((id, position) => ({
      ...initial.items.find((item) => item.id === id)!,
      position,
    })),
  }),
) {
  let current = initial;
  const fetchMock = stubApi({
    '/api/collections/c1': () => current,
    '/api/collections/c1/order': (_url: URL, init: RequestInit | undefined) => {
      const answer = order(JSON.parse(init!.body as string) as { item_ids: string[] });
      // Like the server, it keeps the order it saved: a reload shows it.
      if (answer !== null && typeof answer === 'object' && 'items' in answer) {
        current = answer as Collection;
      }
      return answer;
    },
  });
  return { fetchMock, set: (next: Collection) => (current = next) };
}

function orderBodies(fetchMock: ReturnType<typeof stubApi>) {
  return fetchMock.mock.calls
    .filter(([url, init]) => init?.method === 'PUT' && url.endsWith('/order'))
    .map(([, init]) => JSON.parse(init!.body as string) as unknown);
}

function titles() {
  const list = screen.getByRole('list', { name: 'Collection items' });
  return within(list)
    .getAllByRole('listitem')
    .map((row) => row.getAttribute('data-item'));
}

describe('CollectionPage', () => {
  it('shows the name, the description, the total and the items in order', async () => {
    stubCollection(three());
    renderCollection();
    expect(await screen.findByRole('heading', { name: 'Road trip', level: 1 })).toBeTruthy();
    expect(screen.getByText('For the van')).toBeTruthy();
    expect(screen.getByText(/3 items · Total 4:30/)).toBeTruthy();
    const rows = within(screen.getByRole('list', { name: 'Collection items' })).getAllByRole(
      'listitem',
    );
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^1.*Mix a.*Night Drive · main.*1:30/),
      expect.stringMatching(/^2.*Version 4.*Night Drive · main.*1:30/),
      expect.stringMatching(/^3.*Mix c/),
    ]);
  });

  it('greys unavailable items with their reason, with no Play; Play plays an available one', async () => {
    stubCollection(
      collection([
        available('a'),
        unavailable('x', 'no_access'),
        unavailable('y', 'not_processed'),
      ]),
    );
    const player = fakePlayer();
    renderCollection(player);
    const list = await screen.findByRole('list', { name: 'Collection items' });
    const [, gone, pending] = within(list).getAllByRole('listitem');
    expect(within(gone!).getByText('No longer available to you')).toBeTruthy();
    expect(within(pending!).getByText('Not processed yet')).toBeTruthy();
    for (const row of [gone!, pending!]) {
      expect(row.className).toContain('text-zinc-500');
      expect(within(row).queryByRole('button', { name: /^Play/ })).toBeNull();
      expect(within(row).getByRole('button', { name: /^Remove/ })).toBeTruthy();
    }
    expect(within(list).getAllByRole('button', { name: /^Play/ })).toHaveLength(1);

    // An item's Play plays the collection from there on (the unavailable ones are not in it).
    fireEvent.click(within(list).getByRole('button', { name: 'Play "Mix a"' }));
    expect(player.playQueue).toHaveBeenCalledWith(
      [
        expect.objectContaining({
          title: 'Mix a',
          artist: 'Night Drive',
          audioUrl: '/api/versions/v-a/stream',
        }),
      ],
      0,
    );
  });

  it("'Play all' plays the playable items in order, and an item's Play starts the list there", async () => {
    stubCollection(
      collection([available('a'), unavailable('x', 'no_access'), available('b'), available('c')]),
    );
    const player = fakePlayer();
    renderCollection(player);
    const list = await screen.findByRole('list', { name: 'Collection items' });
    fireEvent.click(screen.getByRole('button', { name: 'Play all' }));
    const titles = (call: unknown[] | undefined) =>
      (call?.[0] as { title: string }[]).map((track) => track.title);
    expect(titles(vi.mocked(player.playQueue).mock.calls[0])).toEqual(['Mix a', 'Mix b', 'Mix c']);

    fireEvent.click(within(list).getByRole('button', { name: 'Play "Mix c"' }));
    const second = vi.mocked(player.playQueue).mock.calls[1];
    expect(titles(second)).toEqual(['Mix a', 'Mix b', 'Mix c']);
    expect(second?.[1]).toBe(2);
    expect(player.playTrack).not.toHaveBeenCalled();
  });

  it("offers no 'Play all' when nothing can play", async () => {
    stubCollection(collection([unavailable('x', 'no_access')]));
    renderCollection();
    await screen.findByRole('list', { name: 'Collection items' });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Play all' }).disabled).toBe(true);
  });

  it('has no axe violations, with available and unavailable items', async () => {
    stubCollection(collection([available('a'), unavailable('x', 'no_access')]));
    renderCollection();
    await screen.findByRole('list', { name: 'Collection items' });
    expect(await axeViolations()).toEqual([]);
  });

  it("shows a bounce with its title, repository · branch, a link to its repository and a 'Bounce' badge", async () => {
    stubCollection(
      collection([
        available('a'),
        bounceItem('s', { title: 'Chorus bounce', duration: 75 }),
        unavailable('x', 'no_access'),
      ]),
    );
    renderCollection();
    const list = await screen.findByRole('list', { name: 'Collection items' });
    const [, bounce] = within(list).getAllByRole('listitem');
    expect(bounce!.textContent).toMatch(/^2.*Chorus bounce.*Bounce.*Harbour Lights · main.*1:15/);
    expect(within(bounce!).getByRole('link', { name: 'Harbour Lights' }).getAttribute('href')).toBe(
      '/repositories/r1',
    );
    expect(within(bounce!).getByRole('button', { name: 'Play "Chorus bounce"' })).toBeTruthy();
    expect(within(bounce!).getByRole('button', { name: 'Remove "Chorus bounce"' })).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it("queues a bounce like any item: 'Play all', and its own Play starting the list there", async () => {
    stubCollection(
      collection([
        available('a'),
        bounceItem('s', { title: 'Chorus bounce' }),
        bounceItem('p', { title: 'Still rendering', status: 'processing' }),
        available('c'),
      ]),
    );
    const player = fakePlayer();
    renderCollection(player);
    const list = await screen.findByRole('list', { name: 'Collection items' });
    fireEvent.click(screen.getByRole('button', { name: 'Play all' }));
    const [tracks, start] = vi.mocked(player.playQueue).mock.calls[0] ?? [];
    expect(start).toBeUndefined();
    expect(tracks?.map((track) => track.title)).toEqual(['Mix a', 'Chorus bounce', 'Mix c']);
    // The bounce's track is the one the Bounces page plays: its id, the repository as artist,
    // its stream and the repository page; no version of a project.
    expect(tracks?.[1]).toEqual({
      id: 'bn-s',
      title: 'Chorus bounce',
      artist: 'Harbour Lights',
      audioUrl: '/api/repos/r1/bounces/bn-s/stream',
      sourceUrl: '/repositories/r1',
      duration: 75,
    });

    fireEvent.click(within(list).getByRole('button', { name: 'Play "Chorus bounce"' }));
    expect(player.playQueue).toHaveBeenLastCalledWith(tracks, 1);
    // A bounce still processing cannot play yet.
    expect(
      within(list).getByRole<HTMLButtonElement>('button', { name: 'Play "Still rendering"' })
        .disabled,
    ).toBe(true);
  });

  it('shows an unavailable bounce like any unavailable item', async () => {
    stubCollection(
      collection([
        {
          id: 'z',
          position: 0,
          kind: 'bounce',
          unavailable: true,
          reason: 'no_access',
          link_unavailable_reason: null,
        },
      ]),
    );
    renderCollection();
    const list = await screen.findByRole('list', { name: 'Collection items' });
    const [row] = within(list).getAllByRole('listitem');
    expect(within(row!).getByText('No longer available to you')).toBeTruthy();
    expect(row!.className).toContain('text-zinc-500');
    expect(within(row!).queryByRole('button', { name: /^Play/ })).toBeNull();
    expect(within(row!).queryByRole('link')).toBeNull();
  });

  it("says on an item its links cannot serve: 'You need Editor access to share this'", async () => {
    stubCollection(
      collection([
        available('a'),
        available('b', { link_unavailable_reason: 'You need Editor access to share this' }),
      ]),
    );
    renderCollection();
    const list = await screen.findByRole('list', { name: 'Collection items' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(second!).getByText('You need Editor access to share this')).toBeTruthy();
    expect(within(first!).queryByText('You need Editor access to share this')).toBeNull();
    // It still plays for its owner.
    expect(within(second!).getByRole('button', { name: 'Play "Mix b"' })).toBeTruthy();
  });

  it('Remove deletes the item and shows the reloaded collection', async () => {
    const stub = stubCollection(three());
    stub.fetchMock.mockClear();
    renderCollection();
    await screen.findByRole('list', { name: 'Collection items' });
    const inner = stub.fetchMock.getMockImplementation()!;
    stub.fetchMock.mockImplementation((input: string, init?: RequestInit) => {
      if (init?.method === 'DELETE') {
        stub.set(collection([available('a'), available('c')]));
        return Promise.resolve(new Response(null, { status: 204 }));
      }
      return inner(input, init);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove "Version 4"' }));
    await waitFor(() => expect(titles()).toEqual(['a', 'c']));
    const deletes = stub.fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    expect(deletes.map(([url]) => new URL(url, 'http://localhost').pathname)).toEqual([
      '/api/collections/c1/items/b',
    ]);
  });

  it('Move down then Move up send the full new order each time', async () => {
    const { fetchMock } = stubCollection(three());
    renderCollection();
    await screen.findByRole('list', { name: 'Collection items' });
    fireEvent.click(screen.getByRole('button', { name: 'Move down "Mix a"' }));
    await waitFor(() => expect(titles()).toEqual(['b', 'a', 'c']));
    await waitFor(() => expect(orderBodies(fetchMock)).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Move up "Mix c"' }));
    await waitFor(() => expect(titles()).toEqual(['b', 'c', 'a']));
    await waitFor(() =>
      expect(orderBodies(fetchMock)).toEqual([
        { item_ids: ['b', 'a', 'c'] },
        { item_ids: ['b', 'c', 'a'] },
      ]),
    );
    expect(screen.getByRole('button', { name: 'Move up "Version 4"' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('Alt+ArrowDown on a focused handle moves the item; focus follows; it is announced', async () => {
    const { fetchMock } = stubCollection(three());
    renderCollection();
    const handle = await screen.findByRole('button', { name: 'Reorder "Mix a"' });
    act(() => handle.focus());
    fireEvent.keyDown(handle, { key: 'ArrowDown' });
    expect(titles()).toEqual(['a', 'b', 'c']);
    fireEvent.keyDown(handle, { key: 'ArrowDown', altKey: true });
    await waitFor(() => expect(titles()).toEqual(['b', 'a', 'c']));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reorder "Mix a"' })),
    );
    const live = screen
      .getAllByRole('status')
      .find((element) => element.getAttribute('aria-live') === 'polite');
    expect(live?.textContent).toBe('Moved "Mix a" to position 2 of 3');
    await waitFor(() => expect(orderBodies(fetchMock)).toEqual([{ item_ids: ['b', 'a', 'c'] }]));
  });

  it('two quick Alt+ArrowUp presses move the item two places, even before the first re-renders', async () => {
    const { fetchMock } = stubCollection(three());
    renderCollection();
    const handle = await screen.findByRole('button', { name: 'Reorder "Mix c"' });
    act(() => handle.focus());
    fireEvent.keyDown(handle, { key: 'ArrowUp', altKey: true });
    fireEvent.keyDown(handle, { key: 'ArrowUp', altKey: true });
    await waitFor(() =>
      expect(orderBodies(fetchMock)).toEqual([
        { item_ids: ['a', 'c', 'b'] },
        { item_ids: ['c', 'a', 'b'] },
      ]),
    );
    await waitFor(() => expect(titles()).toEqual(['c', 'a', 'b']));
    const live = screen
      .getAllByRole('status')
      .find((element) => element.getAttribute('aria-live') === 'polite');
    expect(live?.textContent).toBe('Moved "Mix c" to position 1 of 3');
  });

  it('a failed reorder rolls back with an error line', async () => {
    let fail: () => void = () => undefined;
    const answer = new Promise<Response>(
      (resolve) =>
        (fail = () =>
          resolve(
            new Response(JSON.stringify({ error: 'Could not save the order' }), { status: 500 }),
          )),
    );
    stubCollection(three(), () => answer);
    renderCollection();
    await screen.findByRole('list', { name: 'Collection items' });
    fireEvent.click(screen.getByRole('button', { name: 'Move down "Mix a"' }));
    await waitFor(() => expect(titles()).toEqual(['b', 'a', 'c']));
    fail();
    expect((await screen.findByRole('alert')).textContent).toBe('Could not save the order');
    await waitFor(() => expect(titles()).toEqual(['a', 'b', 'c']));
  });

  it('a 409 reloads the collection and says so', async () => {
    const stub = stubCollection(three(), () => {
      stub.set(collection([available('a'), available('c')]));
      return { status: 409, body: { error: 'The collection changed; reload and try again' } };
    });
    renderCollection();
    await screen.findByRole('list', { name: 'Collection items' });
    fireEvent.click(screen.getByRole('button', { name: 'Move down "Mix a"' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The collection changed; reloaded.',
    );
    await waitFor(() => expect(titles()).toEqual(['a', 'c']));
  });

  it('renames, and deletes after a confirmation, back to the list', async () => {
    const { fetchMock } = stubCollection(three());
    fetchMock.mockImplementation((input: string, init?: RequestInit) => {
      const body =
        init?.method === 'DELETE'
          ? null
          : JSON.stringify(init?.method === 'PATCH' ? { ...three(), name: 'Van mix' } : three());
      return Promise.resolve(new Response(body, { status: init?.method === 'DELETE' ? 204 : 200 }));
    });
    renderCollection();
    await screen.findByRole('heading', { name: 'Road trip', level: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit collection' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Van mix' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Van mix', level: 1 })).toBeTruthy();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(patch![1]!.body as string)).toEqual({
      name: 'Van mix',
      description: 'For the van',
    });

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete collection' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByTestId('landed-at')).textContent).toBe('/collections');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
  });
});

describe('CollectionPage cover', () => {
  const PNG_URL = '/api/collections/c1/cover?v=one';

  function chooseCover(file: File) {
    fireEvent.change(screen.getByLabelText('Cover image'), { target: { files: [file] } });
  }

  it('shows a placeholder without a cover, and changes it from a chosen image', async () => {
    let current = collection([], { name: 'Road trip' });
    const fetchMock = stubApi({
      '/api/collections/c1': () => current,
      '/api/collections/c1/cover': (_url: URL, init: RequestInit | undefined) => {
        expect(init?.method).toBe('PUT');
        const form = init?.body as FormData;
        expect((form.get('cover_image') as File).name).toBe('cover.png');
        current = { ...current, cover_url: PNG_URL };
        return current;
      },
    });
    renderCollection();
    await screen.findByRole('heading', { level: 1, name: 'Road trip' });
    expect(screen.getByTestId('collection-cover-placeholder')).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Cover of Road trip' })).toBeNull();
    // Nothing to remove yet.
    expect(screen.queryByRole('button', { name: 'Remove cover' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Change cover' }));
    chooseCover(new File([new Uint8Array([0x89, 0x50])], 'cover.png', { type: 'image/png' }));
    const cover = await screen.findByRole('img', { name: 'Cover of Road trip' });
    expect(cover.getAttribute('src')).toBe(PNG_URL);
    expect(screen.getByRole('button', { name: 'Remove cover' })).toBeTruthy();
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/collections/c1/cover')),
    ).toHaveLength(1);
    expect(await axeViolations()).toEqual([]);
  });

  it('removes the cover, and says why an image was refused', async () => {
    let current = collection([], { name: 'Road trip', cover_url: PNG_URL });
    stubApi({
      '/api/collections/c1': () => current,
      '/api/collections/c1/cover': (_url: URL, init: RequestInit | undefined) => {
        if (init?.method === 'DELETE') {
          current = { ...current, cover_url: null };
          return Promise.resolve(new Response(null, { status: 204 }));
        }
        return {
          status: 415,
          body: { error: 'The cover must be a PNG, JPEG or WebP image' },
        };
      },
    });
    renderCollection();
    expect(
      (await screen.findByRole('img', { name: 'Cover of Road trip' })).getAttribute('src'),
    ).toBe(PNG_URL);

    chooseCover(new File(['just text'], 'cover.png', { type: 'image/png' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The cover must be a PNG, JPEG or WebP image',
    );
    // The cover shown stays.
    expect(screen.getByRole('img', { name: 'Cover of Road trip' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove cover' }));
    await waitFor(() =>
      expect(screen.queryByRole('img', { name: 'Cover of Road trip' })).toBeNull(),
    );
    expect(screen.getByTestId('collection-cover-placeholder')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove cover' })).toBeNull();
  });

  it('refuses an image over 5 MB before sending it', async () => {
    const fetchMock = stubApi({ '/api/collections/c1': collection([], { name: 'Road trip' }) });
    renderCollection();
    await screen.findByRole('heading', { level: 1, name: 'Road trip' });
    const big = new File(['x'], 'big.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: 5 * 1024 * 1024 + 1 });
    chooseCover(big);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The cover image must be 5 MB or smaller',
    );
    expect(
      fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/collections/c1/cover')),
    ).toBe(false);
  });
});

describe('CollectionPage by role', () => {
  const mixed = (role: Collection['role']) =>
    collection([available('a'), unavailable('x', 'no_access'), available('b')], {
      name: 'Road trip',
      cover_url: '/api/collections/c1/cover?v=one',
      role,
    });

  /** The buttons only an owner or an editor has. */
  function editingControls() {
    return {
      share: screen.queryByRole('button', { name: 'Share collection' }),
      edit: screen.queryByRole('button', { name: 'Edit' }),
      remove: screen.queryByRole('button', { name: 'Delete' }),
      changeCover: screen.queryByRole('button', { name: 'Change cover' }),
      removeCover: screen.queryByRole('button', { name: 'Remove cover' }),
      links: screen.queryByRole('tab', { name: 'Links' }),
      reorder: screen.queryAllByRole('button', { name: /^Reorder/ }),
      moves: screen.queryAllByRole('button', { name: /^Move (up|down)/ }),
      removeItems: screen.queryAllByRole('button', { name: /^Remove "/ }),
    };
  }

  it('the owner sees every control: Members, Share collection, Edit, the cover, Delete, the Links tab, reordering and Remove', async () => {
    stubCollection(mixed('owner'));
    renderCollection();
    await screen.findByRole('list', { name: 'Collection items' });
    const controls = editingControls();
    expect(controls.share).toBeTruthy();
    expect(controls.edit).toBeTruthy();
    expect(controls.remove).toBeTruthy();
    expect(controls.changeCover).toBeTruthy();
    expect(controls.removeCover).toBeTruthy();
    expect(controls.links).toBeTruthy();
    expect(controls.reorder).toHaveLength(3);
    expect(controls.moves).toHaveLength(6);
    expect(controls.removeItems).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Members' })).toBeTruthy();
    expect(screen.getByText('Owner')).toBeTruthy();
  });

  it('an editor reorders (keyboard too), removes and changes the cover, but has no Share collection, Links, Edit or Delete', async () => {
    const { fetchMock } = stubCollection(mixed('editor'));
    renderCollection();
    await screen.findByRole('list', { name: 'Collection items' });
    const controls = editingControls();
    expect(controls.share).toBeNull();
    expect(controls.links).toBeNull();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(controls.edit).toBeNull();
    expect(controls.remove).toBeNull();
    expect(controls.changeCover).toBeTruthy();
    expect(controls.removeCover).toBeTruthy();
    expect(controls.reorder).toHaveLength(3);
    expect(controls.moves).toHaveLength(6);
    expect(controls.removeItems).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Members' })).toBeTruthy();
    expect(screen.getByText('Editor')).toBeTruthy();

    const handle = screen.getByRole('button', { name: 'Reorder "Mix a"' });
    act(() => handle.focus());
    fireEvent.keyDown(handle, { key: 'ArrowDown', altKey: true });
    await waitFor(() => expect(titles()).toEqual(['x', 'a', 'b']));
    await waitFor(() => expect(orderBodies(fetchMock)).toEqual([{ item_ids: ['x', 'a', 'b'] }]));
    expect(await axeViolations()).toEqual([]);
  });

  it('a viewer sees and plays the items, with no editing control at all', async () => {
    stubCollection(mixed('viewer'));
    const player = fakePlayer();
    renderCollection(player);
    const list = await screen.findByRole('list', { name: 'Collection items' });
    expect(screen.getByRole('heading', { name: 'Road trip', level: 1 })).toBeTruthy();
    expect(within(list).getByText('No longer available to you')).toBeTruthy();
    const controls = editingControls();
    expect(controls).toEqual({
      share: null,
      edit: null,
      remove: null,
      changeCover: null,
      removeCover: null,
      links: null,
      reorder: [],
      moves: [],
      removeItems: [],
    });
    expect(screen.queryByLabelText('Cover image')).toBeNull();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.getByText('Viewer')).toBeTruthy();
    // The cover still shows.
    expect(screen.getByRole('img', { name: 'Cover of Road trip' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Play all' }));
    expect(
      (vi.mocked(player.playQueue).mock.calls[0]?.[0] as { title: string }[]).map((t) => t.title),
    ).toEqual(['Mix a', 'Mix b']);
    fireEvent.click(within(list).getByRole('button', { name: 'Play "Mix b"' }));
    expect(vi.mocked(player.playQueue).mock.calls[1]?.[1]).toBe(1);
    expect(await axeViolations()).toEqual([]);
  });

  it("a viewer's empty collection does not ask them to add versions", async () => {
    stubCollection(collection([], { role: 'viewer' }));
    renderCollection();
    expect(await screen.findByText('Nothing in this collection yet.')).toBeTruthy();
  });

  it("'Members' opens the collection's members dialog", async () => {
    const fetchMock = stubApi({
      '/api/collections/c1': mixed('viewer'),
      '/api/collections/c1/members': {
        role: 'viewer',
        members: [
          {
            user_id: 'u9',
            email: 'olive@example.com',
            name: 'Olive Owner',
            avatar_url: null,
            role: 'owner',
            joined_at: '2026-01-01T00:00:00.000Z',
          },
          {
            user_id: 'u1',
            email: 'me@example.com',
            name: null,
            avatar_url: null,
            role: 'viewer',
            joined_at: '2026-01-02T00:00:00.000Z',
          },
        ],
        invitations: [],
      },
    });
    renderCollection();
    fireEvent.click(await screen.findByRole('button', { name: 'Members' }));
    const dialog = await screen.findByRole('dialog', { name: 'Collection members' });
    const members = await within(dialog).findByRole('list', { name: 'Members' });
    expect(within(members).getAllByRole('listitem')).toHaveLength(2);
    expect(within(dialog).getByRole('button', { name: 'Leave collection' })).toBeTruthy();
    expect(
      fetchMock.mock.calls.some(
        ([url]) => new URL(url, 'http://localhost').pathname === '/api/collections/c1/members',
      ),
    ).toBe(true);
  });

  it('says a collection the caller cannot see was not found', async () => {
    stubApi({ '/api/collections/c1': { status: 404, body: { error: 'Collection not found' } } });
    renderCollection();
    expect((await screen.findByRole('alert')).textContent).toBe('Collection not found');
    expect(screen.queryByRole('button', { name: 'Members' })).toBeNull();
  });
});
