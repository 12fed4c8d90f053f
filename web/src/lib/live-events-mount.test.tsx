import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '../features/auth/auth-context';
import { LiveEvents, useShareLiveEvents, type EventSourceLike } from './live-events';

const opened: { url: string; closed: boolean }[] = [];
const options = {
  open: (url: string): EventSourceLike => {
    const source = {
      url,
      closed: false,
      onopen: null,
      onmessage: null,
      onerror: null,
      close() {
        source.closed = true;
      },
    };
    opened.push(source);
    return source;
  },
};

const noop = () => Promise.resolve();
const signedIn: AuthContextValue = {
  status: 'signed-in',
  user: { id: 'u1', email: 'maya@example.com', name: 'Maya', display_name: null, avatar_url: null },
  refresh: noop,
  signOut: noop,
  acceptSession: () => {},
};
const signedOut: AuthContextValue = {
  status: 'signed-out',
  user: null,
  refresh: noop,
  signOut: noop,
  acceptSession: () => {},
};

function SharePageStandIn({ hash }: { hash: string }) {
  useShareLiveEvents(hash);
  return null;
}

function App({ auth, share }: { auth: AuthContextValue; share?: string }) {
  return (
    <QueryClientProvider client={client}>
      <AuthContext.Provider value={auth}>
        <LiveEvents options={options} />
        {share ? <SharePageStandIn hash={share} /> : null}
      </AuthContext.Provider>
    </QueryClientProvider>
  );
}
const client = new QueryClient();

describe('the tab’s one live-event stream', () => {
  // The connection is loaded lazily; loaded here first, so the waits below are for the component's
  // behaviour and not for the first transform of the module (over a second on a slow machine).
  beforeAll(async () => {
    await import('./live-events-connection');
  });

  it('is the signed-in person’s, a share page’s while one is open, and none signed out', async () => {
    opened.length = 0;
    const urls = () => opened.map((s) => s.url);
    const view = render(<App auth={signedIn} />);
    await vi.waitFor(() => expect(urls()).toEqual(['/api/events']));

    view.rerender(<App auth={signedIn} share="Key123" />);
    await vi.waitFor(() => expect(urls()).toEqual(['/api/events', '/api/events?link=Key123']));
    expect(opened[0]?.closed).toBe(true);
    expect(opened[1]?.closed).toBe(false);

    view.rerender(<App auth={signedIn} />);
    await vi.waitFor(() => expect(opened).toHaveLength(3));
    expect(opened[1]?.closed).toBe(true);
    expect(opened[2]?.url).toBe('/api/events');

    view.rerender(<App auth={signedOut} />);
    expect(opened[2]?.closed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opened).toHaveLength(3);

    // A visitor signed out on a share page still hears of its comments.
    view.rerender(<App auth={signedOut} share="Key123" />);
    await vi.waitFor(() => expect(opened[3]?.url).toBe('/api/events?link=Key123'));
    view.unmount();
    expect(opened[3]?.closed).toBe(true);
  });
});
