import {
  isValidSeekTime,
  playerReducer,
  type PlayerAction,
  type PlayerStoreState,
} from './player-reducer';
import type { PlayerPosition } from './player-types';

/** A value that tells its subscribers when it changes (for `useSyncExternalStore`). */
export interface ValueStore<T> {
  get: () => T;
  set: (next: T) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createValueStore<T>(initial: T): ValueStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (next) => {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The player's two stores: its state (changed by the reducer's actions, read at once by the
 * controls, so two clicks in one tick see each other) and its position (which moves about every
 * 100 ms while playing and re-renders only what shows it).
 */
export interface PlayerStore {
  state: ValueStore<PlayerStoreState>;
  dispatch: (action: PlayerAction) => void;
  position: PlayerPosition;
  /** Seconds into the current track; negative or non-numeric values are ignored. */
  setPosition: (seconds: number) => void;
}

export function createPlayerStore(initial: PlayerStoreState): PlayerStore {
  const state = createValueStore(initial);
  const position = createValueStore(0);
  return {
    state,
    dispatch: (action) => state.set(playerReducer(state.get(), action)),
    position: { get: position.get, subscribe: position.subscribe },
    setPosition: (seconds) => {
      if (isValidSeekTime(seconds)) position.set(seconds);
    },
  };
}
