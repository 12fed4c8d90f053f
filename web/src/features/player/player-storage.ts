import { clampVolume, DEFAULT_VOLUME } from './player-reducer';

const VOLUME_KEY = 'takes.player.volume';

export interface SavedVolume {
  volume: number;
  muted: boolean;
}

export function loadSavedVolume(): SavedVolume {
  try {
    const raw = localStorage.getItem(VOLUME_KEY);
    if (!raw) return { volume: DEFAULT_VOLUME, muted: false };
    const parsed = JSON.parse(raw) as Partial<SavedVolume>;
    return {
      volume: typeof parsed.volume === 'number' ? clampVolume(parsed.volume) : DEFAULT_VOLUME,
      muted: parsed.muted === true,
    };
  } catch {
    return { volume: DEFAULT_VOLUME, muted: false };
  }
}

export function saveVolume(saved: SavedVolume): void {
  try {
    localStorage.setItem(VOLUME_KEY, JSON.stringify(saved));
  } catch {
    // Storage can be full or disabled (private mode); the player still works for this visit.
  }
}
