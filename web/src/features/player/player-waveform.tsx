import { useEffect, useRef } from 'react';
import WaveSurfer from 'wavesurfer.js';

/** The player's waveform: default peak count 100, height 80, bar width 2, gap 1. */
const FLAT_PEAKS: number[] = Array.from({ length: 100 }, () => 0.5);

function waveColors() {
  const dark = document.documentElement.classList.contains('dark');
  return {
    waveColor: dark ? '#52525b' : '#a1a1aa',
    progressColor: dark ? '#818cf8' : '#4f46e5',
    cursorColor: dark ? '#e4e4e7' : '#18181b',
  };
}

interface PlayerWaveformProps {
  audio: HTMLAudioElement;
  trackId: string;
  peaks: number[] | undefined;
  duration: number;
}

/**
 * Draws the stored overview peaks over the shared media element; audio is never decoded here.
 * Created once per track after its source is set, so wavesurfer never replaces the element's src.
 */
export function PlayerWaveform({ audio, trackId, peaks, duration }: PlayerWaveformProps) {
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container || duration <= 0) return;
    const wavesurfer = WaveSurfer.create({
      container,
      media: audio,
      peaks: [peaks && peaks.length > 0 ? peaks : FLAT_PEAKS],
      duration,
      height: 80,
      barWidth: 2,
      barGap: 1,
      dragToSeek: true,
      ...waveColors(),
    });
    // Follow the theme toggle, which flips the `dark` class on the root element.
    const themeObserver = new MutationObserver(() => wavesurfer.setOptions(waveColors()));
    themeObserver.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['class'],
    });
    return () => {
      themeObserver.disconnect();
      wavesurfer.destroy();
    };
  }, [audio, trackId, peaks, duration]);

  return (
    <div
      ref={containerRef}
      data-testid="player-waveform"
      aria-hidden="true"
      className="h-20 w-full cursor-pointer"
    />
  );
}
