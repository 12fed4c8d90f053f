import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { makeAudio } from '../../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../../test/test-app';
import type { Clock } from '../../clock';

/** For tests: a clock that never gives the same millisecond twice, so 'newest first' is defined. */
export class TickingClock implements Clock {
  private last = 0;
  now(): Date {
    this.last = Math.max(Date.now(), this.last + 1);
    return new Date(this.last);
  }
}

/**
 * For the activity tests: one test app on a ticking clock and a one-second WAV named `fileName`,
 * made before the file's tests and removed after them. Read `t` and `wav` inside tests or hooks.
 */
export function useActivityApp(fileName: string): { t: TestApp; wav: string } {
  const state = {} as { t: TestApp; wav: string; dir: string };
  beforeAll(async () => {
    state.t = await createTestApp({ clock: new TickingClock() });
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-activity-'));
    state.wav = await makeAudio(state.dir, 'wav', 1, fileName);
  });
  afterAll(async () => {
    await state.t?.close();
    if (state.dir) fs.rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}
