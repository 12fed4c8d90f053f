/// <reference lib="dom" />
// The page-side callbacks below read the compare panel's DOM, so this file needs the DOM types.
import type { Page } from '@playwright/test';

export interface Reading {
  side: string;
  positionMs: number;
  at: number;
}

/**
 * Records every update of the compare's position readout (one per animation frame) with the
 * side heard and the page clock at that moment, so positions can be compared against elapsed time.
 */
export function startRecording(page: Page) {
  return page.evaluate(() => {
    const readout = document.querySelector<HTMLElement>('[data-testid="compare-position"]');
    const panel = document.querySelector<HTMLElement>('[data-testid="compare-panel"]');
    if (!readout || !panel) throw new Error('compare panel missing');
    const store = window as unknown as { compareReadings: Reading[] };
    store.compareReadings = [];
    new MutationObserver(() => {
      store.compareReadings.push({
        side: panel.dataset.activeSide ?? '',
        positionMs: Number(readout.dataset.positionMs),
        at: performance.now(),
      });
    }).observe(readout, { attributes: true, attributeFilter: ['data-position-ms'] });
  });
}

export function takeReadings(page: Page): Promise<Reading[]> {
  return page.evaluate(() => {
    const store = window as unknown as { compareReadings: Reading[] };
    const readings = store.compareReadings;
    store.compareReadings = [];
    return readings;
  });
}

export function readingsCount(page: Page): Promise<number> {
  return page.evaluate(
    () => (window as unknown as { compareReadings: Reading[] }).compareReadings.length,
  );
}

/** Milliseconds between the first and the last reading recorded so far. */
export function readingsSpan(page: Page): Promise<number> {
  return page.evaluate(() => {
    const readings = (window as unknown as { compareReadings: Reading[] }).compareReadings;
    return (readings[readings.length - 1]?.at ?? 0) - (readings[0]?.at ?? 0);
  });
}
