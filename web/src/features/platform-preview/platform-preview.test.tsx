import { act, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { CompareEngine } from '../compare/compare-engine';
import { useCompare } from '../compare/use-compare';
import { fakePlayer } from '../player/test-support';
import {
  AudioPlayerContext,
  type AudioPlayerApi,
  type PlayerTrack,
} from '../player/use-audio-player';
import {
  COMPARE_PREVIEW_HINT,
  ComparePlatformPreview,
  useComparePlatformPreview,
} from './compare-platform-preview';
import { resetOwnOriginProbe } from './player-gain';
import { PREVIEW_OFF_LABEL } from './platform-select';
import { NO_LOUDNESS_SENTENCE, type StoredLoudness } from './preview-logic';
import {
  NOT_PLAYING_NOTE,
  NOT_RAISED_NOTE,
  VERSION_PREVIEW_HINT,
  VersionPlatformPreview,
} from './version-platform-preview';

afterEach(() => {
  resetOwnOriginProbe();
  vi.unstubAllGlobals();
});

const track: PlayerTrack = {
  id: 'v1',
  title: 'Version 1',
  artist: 'Band',
  audioUrl: '/api/versions/v1/stream',
};

function loudness(integrated: number | null, peak: number | null): StoredLoudness {
  return { loudness: { integrated_lufs: integrated, true_peak_dbfs: peak } };
}

function renderVersionPreview(version: StoredLoudness, player: AudioPlayerApi) {
  return render(
    <AudioPlayerContext value={player}>
      <VersionPlatformPreview version={version} track={track} />
    </AudioPlayerContext>,
  );
}

const select = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Preview as' });
const sentence = () => screen.getByTestId('platform-preview-sentence').textContent;
const box = () => screen.getByTestId('platform-preview');

/** Same-origin audio answers; `vary` set: the server would redirect media elements elsewhere. */
function stubStreamProbe(headers: Record<string, string> = {}) {
  const fetchStub = vi.fn(() => Promise.resolve(new Response('x', { status: 206, headers })));
  vi.stubGlobal('fetch', fetchStub);
  return fetchStub;
}

describe('VersionPlatformPreview', () => {
  it('offers Original level and the five platforms, and says what the chosen one does', async () => {
    renderVersionPreview(loudness(-8, -0.5), fakePlayer(track));
    expect(Array.from(select().options).map((option) => option.textContent)).toEqual([
      PREVIEW_OFF_LABEL,
      'Spotify',
      'Apple Music',
      'YouTube',
      'TIDAL',
      'Amazon Music',
    ]);
    expect(select().value).toBe('');
    expect(screen.getByText(VERSION_PREVIEW_HINT)).toBeTruthy();
    expect(sentence()).toBe('');

    fireEvent.change(select(), { target: { value: 'spotify' } });
    expect(sentence()).toBe('Spotify will play this 6.0 dB quieter');
    expect(box().dataset.platform).toBe('spotify');
    expect(screen.queryByText(VERSION_PREVIEW_HINT)).toBeNull();

    fireEvent.change(select(), { target: { value: 'apple_music' } });
    expect(sentence()).toBe('Apple Music will play this 8.0 dB quieter');
    expect(await axeViolations()).toEqual([]);

    fireEvent.change(select(), { target: { value: '' } });
    expect(sentence()).toBe('');
    expect(box().dataset.platform).toBe('off');
  });

  it('says when the true peak holds a quiet track back, and when a platform leaves it alone', () => {
    renderVersionPreview(loudness(-20, -3), fakePlayer(track));
    fireEvent.change(select(), { target: { value: 'spotify' } });
    expect(sentence()).toBe('Spotify will play this 2.0 dB louder');
    expect(
      screen.getByText(
        'Held back by its true peak: Spotify turns a quiet track up only until its peak reaches −1 dBTP.',
      ),
    ).toBeTruthy();
    fireEvent.change(select(), { target: { value: 'youtube' } });
    expect(sentence()).toBe('YouTube will play this at its own level');
    expect(screen.queryByText(/Held back/)).toBeNull();
  });

  it('has nothing to preview without a measurement, and applies only while the version plays', () => {
    const { unmount } = renderVersionPreview({ loudness: null }, fakePlayer(track));
    fireEvent.change(select(), { target: { value: 'tidal' } });
    expect(sentence()).toBe(NO_LOUDNESS_SENTENCE);
    unmount();

    renderVersionPreview(loudness(-9, -1), fakePlayer(null));
    fireEvent.change(select(), { target: { value: 'tidal' } });
    expect(sentence()).toBe('TIDAL will play this 5.0 dB quieter');
    expect(screen.getByText(NOT_PLAYING_NOTE)).toBeTruthy();
    expect(box().dataset.appliedGainDb).toBeUndefined();
  });

  it('turns the player down through its volume when Web Audio cannot take the audio', async () => {
    const fetchStub = stubStreamProbe({ vary: 'Sec-Fetch-Dest' });
    const audio = document.createElement('audio');
    audio.volume = 0.8;
    const player = { ...fakePlayer(track), audioElement: audio };
    const { unmount } = renderVersionPreview(loudness(-8, -0.5), player);

    fireEvent.change(select(), { target: { value: 'spotify' } });
    await waitFor(() => expect(box().dataset.appliedGainDb).toBe('-6.0'));
    expect(box().dataset.gainPath).toBe('volume');
    expect(audio.volume).toBeCloseTo(0.8 * 0.501, 3);
    expect(fetchStub).toHaveBeenCalledTimes(1);

    unmount();
    expect(audio.volume).toBe(0.8);
  });

  it('shows a positive gain it cannot apply through the volume as not applied', async () => {
    stubStreamProbe({ vary: 'Sec-Fetch-Dest' });
    const audio = document.createElement('audio');
    renderVersionPreview(loudness(-20, -3), { ...fakePlayer(track), audioElement: audio });
    fireEvent.change(select(), { target: { value: 'spotify' } });
    await waitFor(() => expect(box().dataset.appliedGainDb).toBe('0.0'));
    expect(screen.getByText(NOT_RAISED_NOTE)).toBeTruthy();
    expect(audio.volume).toBe(1);
  });

  it('puts the gain on a GainNode when the audio is from this origin, and unity once off', async () => {
    stubStreamProbe();
    const setTargetAtTime = vi.fn();
    class FakeAudioContext {
      state = 'running';
      currentTime = 0;
      destination = {};
      createMediaElementSource() {
        return { connect: vi.fn() };
      }
      createGain() {
        return { gain: { cancelScheduledValues: vi.fn(), setTargetAtTime }, connect: vi.fn() };
      }
      resume() {
        return Promise.resolve();
      }
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    const audio = document.createElement('audio');
    renderVersionPreview(loudness(-20, -3), { ...fakePlayer(track), audioElement: audio });
    fireEvent.change(select(), { target: { value: 'spotify' } });
    await waitFor(() => expect(box().dataset.gainPath).toBe('web-audio'));
    expect(box().dataset.appliedGainDb).toBe('+2.0');
    expect(screen.queryByText(NOT_RAISED_NOTE)).toBeNull();
    expect(setTargetAtTime.mock.lastCall?.[0]).toBeCloseTo(1.259, 3);

    fireEvent.change(select(), { target: { value: '' } });
    expect(setTargetAtTime.mock.lastCall?.[0]).toBe(1);
    expect(box().dataset.appliedGainDb).toBeUndefined();
  });
});

function ComparePreviewHarness({
  a,
  b,
  matchLoudness,
  setMatchLoudness,
}: {
  a: StoredLoudness;
  b: StoredLoudness;
  matchLoudness: boolean;
  setMatchLoudness: (match: boolean) => void;
}) {
  const preview = useComparePlatformPreview(a, b);
  return (
    <ComparePlatformPreview
      preview={preview}
      matchLoudness={matchLoudness}
      setMatchLoudness={setMatchLoudness}
    />
  );
}

describe('ComparePlatformPreview', () => {
  it('previews both sides as one platform, one sentence each, in place of matching', async () => {
    const setMatchLoudness = vi.fn();
    const props = { a: loudness(-8, -0.3), b: loudness(-16, -6), setMatchLoudness };
    const { rerender } = render(<ComparePreviewHarness {...props} matchLoudness={false} />);
    expect(screen.getByText(COMPARE_PREVIEW_HINT)).toBeTruthy();

    fireEvent.change(select(), { target: { value: 'spotify' } });
    expect(setMatchLoudness).toHaveBeenCalledWith(false);
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'A: Spotify will play this 6.0 dB quieter',
      'B: Spotify will play this 2.0 dB louder',
    ]);
    expect(items.map((item) => item.dataset.appliedGainDb)).toEqual(['-6.0', '+2.0']);
    expect(await axeViolations()).toEqual([]);

    // 'Match loudness' turned on again: the preview shows as off.
    rerender(<ComparePreviewHarness {...props} matchLoudness />);
    expect(select().value).toBe('');
    expect(screen.queryAllByRole('listitem')).toEqual([]);
  });
});

describe('useCompare with a platform preview', () => {
  it("gives the engine each side's platform gain while matching is off", () => {
    const setMatchGain = vi.spyOn(CompareEngine.prototype, 'setMatchGain');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <AudioPlayerContext value={fakePlayer()}>{children}</AudioPlayerContext>
    );
    const { result } = renderHook(() => useCompare({ previewGainDb: { A: -6, B: 2 } }), {
      wrapper,
    });
    // Matching is on by default and wins.
    expect(setMatchGain).toHaveBeenLastCalledWith('B', 1);
    act(() => result.current.setMatchLoudness(false));
    const [sideA, gainA] = setMatchGain.mock.calls.at(-2) ?? [];
    const [sideB, gainB] = setMatchGain.mock.calls.at(-1) ?? [];
    expect(sideA).toBe('A');
    expect(gainA).toBeCloseTo(0.501, 3);
    expect(sideB).toBe('B');
    expect(gainB).toBeCloseTo(1.259, 3);
  });
});
