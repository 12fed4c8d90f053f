import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QualitySelectView } from './quality-select-view';
import type { AudioQuality } from './player-types';

const options = () =>
  screen
    .getAllByRole('option')
    .map(
      (o) =>
        `${(o as HTMLOptionElement).value}:${o.textContent}${(o as HTMLOptionElement).disabled ? ' (off)' : ''}`,
    );

function show(available: string[], value: AudioQuality = 'auto', onChange = vi.fn()) {
  render(
    <QualitySelectView
      available={new Set(available)}
      originalFormat="wav"
      value={value}
      onChange={onChange}
    />,
  );
  return onChange;
}

describe('QualitySelectView', () => {
  afterEach(cleanup);

  it("offers 'Lossless (FLAC)' in Original's place where the version has one", () => {
    const onChange = show(['original', 'lossless', 'high', 'standard']);
    expect(options()).toEqual([
      'auto:Auto',
      'lossless:Lossless (FLAC)',
      'high:High (320k)',
      'standard:Standard (128k)',
    ]);
    fireEvent.change(screen.getByRole('combobox', { name: 'Quality' }), {
      target: { value: 'lossless' },
    });
    expect(onChange).toHaveBeenCalledWith('lossless');
  });

  it('keeps Original for a lossy original, and shows a choice made elsewhere as it is', () => {
    show(['original', 'high', 'standard']);
    expect(options()).toEqual([
      'auto:Auto',
      'original:Original (WAV)',
      'high:High (320k)',
      'standard:Standard (128k)',
    ]);
    cleanup();
    show(['original', 'high', 'standard'], 'lossless');
    expect(options()).toContain('lossless:Lossless (FLAC) (off)');
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Quality' }).value).toBe(
      'lossless',
    );
  });
});
