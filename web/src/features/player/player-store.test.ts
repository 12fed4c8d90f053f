import { describe, expect, it, vi } from 'vitest';
import { initialStoreState } from './player-reducer';
import { createPlayerStore } from './player-store';

describe('the player store', () => {
  it('tells position subscribers of the position, and state subscribers of the state only', () => {
    const store = createPlayerStore(initialStoreState);
    const onState = vi.fn();
    const onPosition = vi.fn();
    store.state.subscribe(onState);
    const stop = store.position.subscribe(onPosition);

    store.setPosition(3.2);
    store.setPosition(3.3);
    expect(store.position.get()).toBe(3.3);
    expect(onPosition).toHaveBeenCalledTimes(2);
    expect(onState).not.toHaveBeenCalled();

    store.dispatch({ type: 'PLAY' });
    expect(store.state.get().isPlaying).toBe(true);
    expect(onState).toHaveBeenCalledTimes(1);
    expect(onPosition).toHaveBeenCalledTimes(2);

    stop();
    store.setPosition(4);
    expect(onPosition).toHaveBeenCalledTimes(2);
  });

  it('ignores negative or non-numeric positions and tells nobody of what changes nothing', () => {
    const store = createPlayerStore(initialStoreState);
    const onState = vi.fn();
    const onPosition = vi.fn();
    store.state.subscribe(onState);
    store.position.subscribe(onPosition);
    store.setPosition(-1);
    store.setPosition(Number.NaN);
    store.setPosition(0);
    expect(store.position.get()).toBe(0);
    expect(onPosition).not.toHaveBeenCalled();
    store.dispatch({ type: 'PAUSE' });
    expect(onState).not.toHaveBeenCalled();
  });
});
