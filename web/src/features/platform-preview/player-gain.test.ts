import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  gainRouteOf,
  mediaFromOwnOrigin,
  mediaMayComeFromElsewhere,
  resetOwnOriginProbe,
  setRouteGain,
  VolumeScaler,
} from './player-gain';

afterEach(() => resetOwnOriginProbe());

describe('mediaMayComeFromElsewhere', () => {
  it('is false for media from this origin only', () => {
    const headers = new Headers({
      'content-security-policy': "default-src 'self'; media-src 'self' blob: data:; img-src 'self'",
      vary: 'Accept-Encoding',
    });
    expect(mediaMayComeFromElsewhere(headers)).toBe(false);
    expect(mediaMayComeFromElsewhere(new Headers())).toBe(false);
  });

  it('is true when media elements are redirected (Vary: Sec-Fetch-Dest) or media may come from a bucket', () => {
    expect(
      mediaMayComeFromElsewhere(new Headers({ vary: 'Accept-Encoding, Sec-Fetch-Dest' })),
    ).toBe(true);
    expect(
      mediaMayComeFromElsewhere(
        new Headers({
          'content-security-policy': "media-src 'self' blob: data: https://bucket.example.com",
        }),
      ),
    ).toBe(true);
  });
});

describe('mediaFromOwnOrigin', () => {
  it('asks once with a one-byte request and remembers the answer', async () => {
    const fetchImpl = vi.fn(() => Promise.resolve(new Response('x', { status: 206 })));
    expect(await mediaFromOwnOrigin('/api/versions/v1/stream', fetchImpl)).toBe(true);
    expect(await mediaFromOwnOrigin('/api/versions/v2/stream', fetchImpl)).toBe(true);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(fetchImpl).toHaveBeenCalledWith('/api/versions/v1/stream', {
      headers: { Range: 'bytes=0-0' },
      credentials: 'same-origin',
    });
  });

  it('counts a failed request as elsewhere, and asks again next time', async () => {
    const failing = vi.fn(() => Promise.reject(new TypeError('offline')));
    expect(await mediaFromOwnOrigin('/s', failing)).toBe(false);
    const working = vi.fn(() =>
      Promise.resolve(new Response('x', { status: 206, headers: { vary: 'Sec-Fetch-Dest' } })),
    );
    expect(await mediaFromOwnOrigin('/s', working)).toBe(false);
    expect(working).toHaveBeenCalledTimes(1);
  });
});

describe('VolumeScaler', () => {
  it("scales the element's volume down and keeps it scaled when the player sets a new volume", () => {
    const audio = document.createElement('audio');
    audio.volume = 0.8;
    const scaler = new VolumeScaler(audio);
    scaler.setGainDb(-6);
    expect(audio.volume).toBeCloseTo(0.8 * 0.501, 3);

    // The player's volume slider sets the element again: the new value is scaled too.
    audio.volume = 0.5;
    audio.dispatchEvent(new Event('volumechange'));
    expect(audio.volume).toBeCloseTo(0.5 * 0.501, 3);

    // A positive gain cannot go above the player's volume.
    scaler.setGainDb(3);
    expect(audio.volume).toBe(0.5);

    scaler.setGainDb(-20);
    scaler.dispose();
    expect(audio.volume).toBe(0.5);
    audio.volume = 0.3;
    audio.dispatchEvent(new Event('volumechange'));
    expect(audio.volume).toBe(0.3);
  });
});

describe('gainRouteOf', () => {
  function fakeContext() {
    const gainParam = { cancelScheduledValues: vi.fn(), setTargetAtTime: vi.fn() };
    const source = { connect: vi.fn() };
    const gainNode = { gain: gainParam, connect: vi.fn() };
    const context = {
      state: 'suspended',
      currentTime: 2,
      destination: {},
      createMediaElementSource: vi.fn(() => source),
      createGain: vi.fn(() => gainNode),
      resume: vi.fn(() => Promise.resolve()),
      close: vi.fn(() => Promise.resolve()),
    };
    return { context, source, gainNode, gainParam };
  }

  it('routes the element through one GainNode, once, and wakes a suspended context', () => {
    const audio = document.createElement('audio');
    const fake = fakeContext();
    const create = vi.fn(() => fake.context as unknown as AudioContext);
    const route = gainRouteOf(audio, create);
    expect(route).not.toBeNull();
    expect(gainRouteOf(audio, create)).toBe(route);
    expect(create).toHaveBeenCalledTimes(1);
    expect(fake.source.connect).toHaveBeenCalledWith(fake.gainNode);
    expect(fake.gainNode.connect).toHaveBeenCalledWith(fake.context.destination);
    expect(fake.context.resume).toHaveBeenCalledTimes(1);
    audio.dispatchEvent(new Event('play'));
    expect(fake.context.resume).toHaveBeenCalledTimes(2);

    if (!route) throw new Error('no route');
    setRouteGain(route, -6);
    const [value, at] = fake.gainParam.setTargetAtTime.mock.calls[0] as [number, number];
    expect(value).toBeCloseTo(0.501, 3);
    expect(at).toBe(2);
  });

  it('answers null when the element cannot be routed', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fake = fakeContext();
    fake.context.createMediaElementSource.mockImplementation(() => {
      throw new DOMException('already connected', 'InvalidStateError');
    });
    const route = gainRouteOf(
      document.createElement('audio'),
      () => fake.context as unknown as AudioContext,
    );
    expect(route).toBeNull();
    expect(fake.context.close).toHaveBeenCalled();
  });
});
