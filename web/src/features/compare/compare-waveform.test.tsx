import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompareWaveform } from './compare-waveform';

afterEach(cleanup);

// jsdom has no PointerEvent: a MouseEvent carries clientX and button.
if (typeof window.PointerEvent === 'undefined') {
  window.PointerEvent = class extends MouseEvent {} as unknown as typeof PointerEvent;
}

function renderWaveform() {
  const onSeek = vi.fn();
  const onSelectRegion = vi.fn();
  render(
    <CompareWaveform
      label="Waveform A"
      waveform={{ min: [-0.5, -0.2], max: [0.5, 0.2], duration: 100 }}
      ownDuration={100}
      timelineDuration={100}
      active
      onSeek={onSeek}
      position={() => 0}
      onSelectRegion={onSelectRegion}
    />,
  );
  const slider = screen.getByRole('slider', { name: 'Waveform A' });
  slider.getBoundingClientRect = () =>
    ({ left: 0, width: 500, top: 0, height: 64, right: 500, bottom: 64 }) as DOMRect;
  return { slider, onSeek, onSelectRegion };
}

describe('CompareWaveform', () => {
  it('seeks on a click and sets the loop region on a drag (either way), without seeking then', () => {
    const { slider, onSeek, onSelectRegion } = renderWaveform();
    fireEvent.pointerDown(slider, { button: 0, clientX: 100 });
    fireEvent.pointerUp(slider, { clientX: 101 });
    fireEvent.click(slider, { clientX: 101 });
    expect(onSeek.mock.calls[0]?.[0]).toBeCloseTo(20.2);
    expect(onSelectRegion).not.toHaveBeenCalled();

    fireEvent.pointerDown(slider, { button: 0, clientX: 400 });
    fireEvent.pointerUp(slider, { clientX: 250 });
    fireEvent.click(slider, { clientX: 250 });
    expect(onSelectRegion).toHaveBeenCalledWith(50, 80);
    expect(onSeek).toHaveBeenCalledTimes(1);
  });
});
