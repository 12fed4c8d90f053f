/// <reference lib="dom" />
// The page-side callbacks below read the compare panel's DOM, so this file needs the DOM types.
import type { Page } from '@playwright/test';

export interface Reading {
  side: string;
  positionMs: number;
  at: number;
}

/** Where the readings come from: the readout with `data-position-ms`, and the side heard. */
export interface ReadingSource {
  readout: string;
  panel: string;
  /** The panel's data attribute (camelCase) naming the side or letter heard. */
  side: string;
}

const COMPARE: ReadingSource = {
  readout: '[data-testid="compare-position"]',
  panel: '[data-testid="compare-panel"]',
  side: 'activeSide',
};

/**
 * Records every update of a position readout (one per animation frame: the compare panel's by
 * default, or a blind test's transport) with the side heard and the page clock at that moment,
 * so positions can be compared against elapsed time.
 */
export function startRecording(page: Page, source: ReadingSource = COMPARE) {
  return page.evaluate((source) => {
    const readout = document.querySelector<HTMLElement>(source.readout);
    const panel = document.querySelector<HTMLElement>(source.panel);
    if (!readout || !panel) throw new Error(`${source.readout} or ${source.panel} missing`);
    const store = window as unknown as { compareReadings: Reading[] };
    store.compareReadings = [];
    new MutationObserver(() => {
      store.compareReadings.push({
        side: panel.dataset[source.side] ?? '',
        positionMs: Number(readout.dataset.positionMs),
        at: performance.now(),
      });
    }).observe(readout, { attributes: true, attributeFilter: ['data-position-ms'] });
  }, source);
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
