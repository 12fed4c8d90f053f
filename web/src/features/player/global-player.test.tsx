import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../repos/test-support';
import { GlobalPlayer } from './global-player';
import { fakePlayer } from './test-support';
import { AudioPlayerContext, type PlayerTrack } from './use-audio-player';

// wavesurfer.js draws on a canvas jsdom does not have.
vi.mock('./player-waveform', () => ({ PlayerWaveform: () => <div /> }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPlayer(track: PlayerTrack, player = fakePlayer(track, { duration: 60 })) {
  stubApi({});
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AudioPlayerContext value={player}>
        <GlobalPlayer onShare={vi.fn()} />
      </AudioPlayerContext>
    </QueryClientProvider>,
  );
}

const memberTrack: PlayerTrack = {
  id: 'v1',
  title: 'First mix',
  audioUrl: '/api/versions/v1/stream',
  versionId: 'v1',
};

describe('GlobalPlayer: what a track offers', () => {
  it('offers download and share for a version the caller may share', () => {
    renderPlayer({ ...memberTrack, shareable: true });
    expect(screen.getByRole('link', { name: 'Download track' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Share track' })).toBeTruthy();
  });

  it('offers no share button to a role that cannot create links', () => {
    renderPlayer({ ...memberTrack, shareable: false });
    expect(screen.getByRole('link', { name: 'Download track' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Share track' })).toBeNull();
  });

  it("offers neither for a Public project's version", () => {
    renderPlayer({
      id: 'public:v1',
      title: 'First mix',
      audioUrl: '/api/public/versions/v1/audio',
      shareable: false,
    });
    expect(screen.queryByRole('link', { name: 'Download track' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Share track' })).toBeNull();
  });
});

describe('GlobalPlayer: a list being played', () => {
  it('offers Previous and Next only while a list plays, Next not at its end', () => {
    renderPlayer(memberTrack);
    expect(screen.queryByRole('button', { name: 'Next track' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Previous track' })).toBeNull();
    cleanup();

    const second: PlayerTrack = { ...memberTrack, id: 'v2', versionId: 'v2', title: 'Second' };
    const player = {
      ...fakePlayer(memberTrack, { duration: 60 }),
      queue: { tracks: [memberTrack, second], index: 0 },
    };
    renderPlayer(memberTrack, player);
    fireEvent.click(screen.getByRole('button', { name: 'Next track' }));
    expect(player.next).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Previous track' }));
    expect(player.previous).toHaveBeenCalledTimes(1);
    cleanup();

    renderPlayer(second, {
      ...fakePlayer(second, { duration: 60 }),
      queue: { tracks: [memberTrack, second], index: 1 },
    });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next track' }).disabled).toBe(
      true,
    );
  });
});
