import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  connectLiveEvents,
  refreshesFor,
  type EventSourceLike,
  type LiveHint,
} from './live-events-connection';

/** A stand-in for the browser's EventSource that a test drives by hand. */
class FakeEventSource implements EventSourceLike {
  static opened: FakeEventSource[] = [];
  onopen: EventSourceLike['onopen'] = null;
  onmessage: EventSourceLike['onmessage'] = null;
  onerror: EventSourceLike['onerror'] = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.call(this, new Event('open'));
  }
  send(hint: LiveHint) {
    this.onmessage?.call(this, new MessageEvent('message', { data: JSON.stringify(hint) }));
  }
  fail() {
    this.onerror?.call(this, new Event('error'));
  }
}

const open = (url: string) => new FakeEventSource(url);

describe('live events', () => {
  let queryClient: QueryClient;
  let invalidated: unknown[][];

  beforeEach(() => {
    FakeEventSource.opened = [];
    queryClient = new QueryClient();
    invalidated = [];
    vi.spyOn(queryClient, 'invalidateQueries').mockImplementation((filters) => {
      invalidated.push([...(filters?.queryKey ?? [])]);
      return Promise.resolve();
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens one stream and refreshes the queries an event concerns', () => {
    const stop = connectLiveEvents(queryClient, { kind: 'user' }, { open });
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(FakeEventSource.opened[0]?.url).toBe('/api/events');
    const source = FakeEventSource.opened[0]!;
    source.open();
    expect(invalidated).toEqual([]);

    source.send({
      type: 'activity',
      activityId: 'a1',
      kind: 'comment.posted',
      projectId: 'p1',
      repoId: null,
      versionId: 'v1',
    });
    expect(invalidated).toEqual(
      expect.arrayContaining([
        ['notifications'],
        ['activity'],
        ['stats'],
        ['projects', 'p1'],
        ['versions', 'v1'],
        ['comments', 'version', 'v1'],
      ]),
    );
    expect(invalidated).not.toContainEqual(['processing', 'v1']);
    stop();
    expect(source.closed).toBe(true);
  });

  it('refreshes processing for version events and repository keys for repository events', () => {
    const processed = refreshesFor(
      { type: 'activity', kind: 'version.processed', projectId: 'p1', versionId: 'v2' },
      { kind: 'user' },
    ).map((r) => r.queryKey);
    expect(processed).toContainEqual(['processing', 'v2']);
    expect(processed).not.toContainEqual(['comments', 'version', 'v2']);

    const bounce = refreshesFor(
      {
        type: 'activity',
        kind: 'bounce.published',
        projectId: null,
        repoId: 'r1',
        versionId: null,
      },
      { kind: 'user' },
    ).map((r) => r.queryKey);
    expect(bounce).toEqual(
      expect.arrayContaining([['repos', 'r1'], ['repos', 'list'], ['bounces'], ['notifications']]),
    );
    expect(bounce.some((key) => key[0] === 'projects')).toBe(false);
  });

  it("on a share page refreshes only its link's comments, for comment events", () => {
    connectLiveEvents(queryClient, { kind: 'link', hash: 'Key123' }, { open });
    const source = FakeEventSource.opened[0]!;
    expect(source.url).toBe('/api/events?link=Key123');
    source.open();
    source.send({ type: 'activity', kind: 'comment.replied', versionId: 'v1' });
    expect(invalidated).toEqual([['comments', 'link', 'Key123']]);
    source.send({ type: 'activity', kind: 'version.processed', versionId: 'v1' });
    expect(invalidated).toHaveLength(1);
    // An approval or a change request: the page's own data (status badge) refetches.
    source.send({ type: 'activity', kind: 'version.review_changed', versionId: 'v1' });
    expect(invalidated).toEqual([
      ['comments', 'link', 'Key123'],
      ['share', 'Key123'],
    ]);
  });

  it('ignores what is not an event', () => {
    connectLiveEvents(queryClient, { kind: 'user' }, { open });
    const source = FakeEventSource.opened[0]!;
    source.onmessage?.call(source, new MessageEvent('message', { data: 'not json' }));
    source.onmessage?.call(source, new MessageEvent('message', { data: '{"type":"other"}' }));
    expect(invalidated).toEqual([]);
  });

  it('reopens a dropped stream with growing waits, and refreshes everything once back', () => {
    vi.useFakeTimers();
    const stop = connectLiveEvents(
      queryClient,
      { kind: 'user' },
      { open, initialDelayMs: 1000, maxDelayMs: 4000 },
    );
    const first = FakeEventSource.opened[0]!;
    first.open();
    first.fail();
    expect(first.closed).toBe(true);

    // 1 s, then 2 s, then 4 s, then never more than 4 s.
    vi.advanceTimersByTime(999);
    expect(FakeEventSource.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.opened).toHaveLength(2);
    FakeEventSource.opened[1]!.fail();
    vi.advanceTimersByTime(1999);
    expect(FakeEventSource.opened).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.opened).toHaveLength(3);
    FakeEventSource.opened[2]!.fail();
    vi.advanceTimersByTime(4000);
    expect(FakeEventSource.opened).toHaveLength(4);
    FakeEventSource.opened[3]!.fail();
    vi.advanceTimersByTime(4000);
    expect(FakeEventSource.opened).toHaveLength(5);
    expect(invalidated).toEqual([]);

    // Back: what was missed meanwhile is fetched again, and the wait starts over.
    const back = FakeEventSource.opened[4]!;
    back.open();
    expect(invalidated).toEqual(
      expect.arrayContaining([['notifications'], ['projects'], ['comments'], ['repos']]),
    );
    back.fail();
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.opened).toHaveLength(6);

    // Closed for good: no more reconnecting.
    stop();
    FakeEventSource.opened[5]!.fail();
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.opened).toHaveLength(6);
  });
});
