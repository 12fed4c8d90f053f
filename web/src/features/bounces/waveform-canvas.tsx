import { useEffect, useRef } from 'react';
import WaveSurfer from 'wavesurfer.js';
import type { BounceWaveform } from '@takes/contract';

function waveColors() {
  const dark = document.documentElement.classList.contains('dark');
  return {
    waveColor: dark ? '#52525b' : '#a1a1aa',
    progressColor: dark ? '#818cf8' : '#4f46e5',
  };
}

interface WaveformCanvasProps {
  waveform: BounceWaveform;
  height: number;
  /** Seconds played, drawn as progress; the global player owns the audio. */
  progressSeconds: number;
}

/**
 * Draws a bounce's stored min/max peaks (top from max, bottom from min) with wavesurfer.js; no
 * audio is loaded or decoded here and wavesurfer's own interaction is off: the wrapper seeks.
 */
export function WaveformCanvas({ waveform, height, progressSeconds }: WaveformCanvasProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const wavesurferRef = useRef<WaveSurfer | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container || waveform.duration <= 0 || waveform.max.length === 0) return;
    const wavesurfer = WaveSurfer.create({
      container,
      peaks: [waveform.max, waveform.min],
      duration: waveform.duration,
      height,
      barWidth: 2,
      barGap: 1,
      cursorWidth: 0,
      interact: false,
      ...waveColors(),
    });
    wavesurferRef.current = wavesurfer;
    const themeObserver = new MutationObserver(() => wavesurfer.setOptions(waveColors()));
    themeObserver.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['class'],
    });
    return () => {
      themeObserver.disconnect();
      wavesurferRef.current = null;
      wavesurfer.destroy();
    };
  }, [waveform, height]);

  useEffect(() => {
    const wavesurfer = wavesurferRef.current;
    if (!wavesurfer) return;
    // Before the peaks are drawn the duration is still 0; 'ready' draws the progress then.
    if (wavesurfer.getDuration() > 0) wavesurfer.setTime(progressSeconds);
    else return wavesurfer.once('ready', () => wavesurfer.setTime(progressSeconds));
  }, [progressSeconds, waveform]);

  return <div ref={containerRef} className="w-full" style={{ height }} />;
}
