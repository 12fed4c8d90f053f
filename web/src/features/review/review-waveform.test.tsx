import type { Comment } from '@takes/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { barsOf, ReviewWaveform, type ReviewWaveformProps } from './review-waveform';

afterEach(cleanup);

// jsdom has no PointerEvent: a MouseEvent with a pointer id carries clientX and button.
if (typeof window.PointerEvent === 'undefined') {
  class TestPointerEvent extends MouseEvent {
    readonly pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
    }
  }
  window.PointerEvent = TestPointerEvent as unknown as typeof PointerEvent;
}

function comment(overrides: Partial<Comment>): Comment {
  return {
    id: 'c1',
    version_id: 'v1',
    user_id: 'u1',
    visitor_name: null,
    author: 'Maya',
    avatar_url: null,
    content: 'Kick is muddy',
    timestamp: 30,
    end_timestamp: null,
    version_number: 1,
    parent_id: null,
    resolved: false,
    created_at: '2026-01-01T00:00:01.000Z',
    team_only: false,
    ...overrides,
  };
}

function renderWaveform(overrides: Partial<ReviewWaveformProps> = {}) {
  const props: ReviewWaveformProps = {
    peaks: Array.from({ length: 400 }, (_, i) => (i % 10) / 10),
    duration: 120,
    currentTime: 60,
    comments: [
      comment({}),
      comment({
        id: 'c2',
        author: 'Lena',
        content: 'Chorus drags',
        timestamp: 62,
        end_timestamp: 78,
      }),
    ],
    selection: null,
    onSeek: vi.fn(),
    onSelectRange: vi.fn(),
    onOpenComment: vi.fn(),
    onPlayRange: vi.fn(),
    ...overrides,
  };
  render(<ReviewWaveform {...props} />);
  const surface = screen.getByRole('slider', { name: 'Waveform' });
  // jsdom lays nothing out: the waveform is 600 px wide at x = 100.
  surface.getBoundingClientRect = () =>
    ({ left: 100, width: 600, top: 0, height: 160, right: 700, bottom: 160 }) as DOMRect;
  return { props, surface };
}

describe('ReviewWaveform', () => {
  it('reduces the stored peaks to the bars it draws (the loudest of each bucket)', () => {
    expect(barsOf([0.1, 0.9, 0.2, 0.4], 2)).toEqual([0.9, 0.4]);
    expect(barsOf([0.5], 3)).toEqual([0.5, 0.5, 0.5]);
    expect(barsOf([], 3)).toEqual([]);
  });

  it('places markers at their times and ranges as regions; choosing them opens and plays', () => {
    const { props } = renderWaveform();
    const marker = screen.getByRole('button', { name: 'Comment at 0:30 by Maya: Kick is muddy' });
    expect(marker.style.left).toBe('25%');
    fireEvent.click(marker);
    expect(props.onOpenComment).toHaveBeenCalledWith(expect.objectContaining({ id: 'c1' }));

    const region = screen.getByRole('button', {
      name: 'Play passage 1:02–1:18, comment by Lena: Chorus drags',
    });
    expect(region.style.left).toBe(`${(62 / 120) * 100}%`);
    fireEvent.click(region);
    expect(props.onPlayRange).toHaveBeenCalledWith({ start: 62, end: 78 });
    expect(screen.getByTestId('review-playhead').style.left).toBe('50%');
  });

  it('seeks on a click and selects a passage on a drag', () => {
    const { props, surface } = renderWaveform();
    fireEvent.pointerDown(surface, { button: 0, clientX: 250, pointerId: 1 });
    fireEvent.pointerUp(surface, { clientX: 251, pointerId: 1 });
    expect(props.onSeek).toHaveBeenCalledWith(30);
    expect(props.onSelectRange).not.toHaveBeenCalled();

    fireEvent.pointerDown(surface, { button: 0, clientX: 400, pointerId: 1 });
    fireEvent.pointerMove(surface, { clientX: 460, pointerId: 1 });
    expect(screen.getByTestId('selection-label').textContent).toBe('1:00–1:12');
    fireEvent.pointerUp(surface, { clientX: 460, pointerId: 1 });
    expect(props.onSelectRange).toHaveBeenCalledWith({ start: 60, end: 72 });
    // Right to left selects the same way.
    fireEvent.pointerDown(surface, { button: 0, clientX: 460, pointerId: 1 });
    fireEvent.pointerUp(surface, { clientX: 400, pointerId: 1 });
    expect(props.onSelectRange).toHaveBeenLastCalledWith({ start: 60, end: 72 });
  });

  it('seeks by keyboard: arrows by 5 s (Shift: 50 s), Home and End', () => {
    const { props, surface } = renderWaveform();
    fireEvent.keyDown(surface, { key: 'ArrowRight' });
    expect(props.onSeek).toHaveBeenLastCalledWith(65);
    fireEvent.keyDown(surface, { key: 'ArrowLeft', shiftKey: true });
    expect(props.onSeek).toHaveBeenLastCalledWith(10);
    fireEvent.keyDown(surface, { key: 'End' });
    expect(props.onSeek).toHaveBeenLastCalledWith(120);
    expect(surface.getAttribute('aria-valuetext')).toBe('1:00 of 2:00');
  });

  it('shows what processing says until peaks exist, and takes no input meanwhile', () => {
    const { props, surface } = renderWaveform({
      peaks: [],
      placeholder: 'Encoding…',
      comments: [comment({})],
    });
    expect(screen.getByText('Encoding…')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Comment at/ })).toBeNull();
    fireEvent.pointerDown(surface, { button: 0, clientX: 250, pointerId: 1 });
    fireEvent.pointerUp(surface, { clientX: 250, pointerId: 1 });
    expect(props.onSeek).not.toHaveBeenCalled();
  });

  it('has no axe violations', async () => {
    renderWaveform({ selection: { start: 10, end: 20 } });
    expect(await axeViolations()).toEqual([]);
  });
});
