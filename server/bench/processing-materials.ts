/**
 * The materials `bench:processing` uploads: 5-minute WAVs made with sox (and one with ffmpeg, the
 * bench's material before issue 51), deterministic (`sox -R`: seeded noise and dither; ffmpeg's
 * noise with a fixed seed). Together they cover 44.1, 48 and 96 kHz, 16 and 24 bit, mono and
 * stereo, music-like and noise-like. Made once into a cache folder (BENCH_MATERIALS_DIR, by
 * default <tmp>/takes-bench-materials), each file named by its material and a hash of the
 * commands that make it, so a rerun uses them again and a changed recipe makes a new file.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probeAudio } from '../src/media/probe';
import type { MediaRunner } from '../src/media/runner';

export const SECONDS = 300;

export interface Material {
  name: string;
  rate: number;
  bits: 16 | 24;
  channels: 1 | 2;
  kind: 'music-like' | 'noise-like' | 'music + noise';
  /** What it is, in words. */
  what: string;
  /** The commands that make it (run in the cache folder; the last writes OUT). */
  commands: string[][];
}

export interface PreparedMaterial extends Material {
  file: string;
  /** What ffprobe reads in the file: the truth printed beside its figures. */
  truth: string;
}

/**
 * sox inputs (`|command` pipes) of a phrase of plucks: [seconds, ...notes] per note or chord. sox
 * plucks only at 44.1 to 48 kHz: above, they are made at 48 kHz and resampled.
 */
function plucks(rate: number, phrase: [number, ...string[]][]): string[] {
  return phrase.map(
    ([seconds, ...notes]) =>
      `|sox -R -r ${Math.min(rate, 48_000)} -c ${notes.length} -n -p synth ${seconds} ${notes.map((n) => `pluck ${n}`).join(' ')}${notes.length > 1 ? ' remix -' : ''}`,
  );
}

const MELODY: [number, ...string[]][] = [
  [0.4, 'E3'],
  [0.2, 'G3'],
  [0.4, 'A3'],
  [0.8, 'C3', 'E3', 'G3'],
  [0.3, 'B3'],
  [0.3, 'A3'],
  [0.6, 'E4'],
  [0.8, 'A2', 'C3', 'E3'],
  [0.2, 'D4'],
  [0.2, 'C4'],
  [0.4, 'B3'],
  [0.8, 'F2', 'A2', 'C3'],
  [0.5, 'G3'],
  [0.5, 'E3'],
];
const CHORDS: [number, ...string[]][] = [
  [1.0, 'C3', 'E3', 'G3', 'C4'],
  [1.0, 'A2', 'E3', 'A3', 'C4'],
  [0.5, 'F2', 'C3', 'F3', 'A3'],
  [0.5, 'F2', 'A2', 'C3', 'F3'],
  [1.0, 'G2', 'D3', 'G3', 'B3'],
  [1.0, 'E2', 'B2', 'E3', 'G3'],
  [0.75, 'D3', 'F3', 'A3', 'D4'],
  [1.25, 'G2', 'B2', 'D3', 'F3'],
];

/**
 * Music-like: the phrase of plucks repeated to 5 minutes (in stereo the right channel 12 ms
 * later), optionally beside sine tones and noise, mixed and normalised to -1 dBFS.
 */
function music(
  name: string,
  format: { rate: number; bits: 16 | 24; channels: 1 | 2 },
  layers: { phrase: [number, ...string[]][]; tones?: string; noise?: [string, number] },
  volumes: { plucks: number; tones?: number },
): string[][] {
  const { rate, bits, channels } = format;
  const phrase = `${name}.phrase.wav`;
  const length = layers.phrase.reduce((sum, [seconds]) => sum + seconds, 0);
  const repeats = Math.ceil(SECONDS / length);
  const stereo = channels === 2 ? ' remix 1 1 delay 0 0.012' : '';
  const inputs = [
    ...['-v', String(volumes.plucks)],
    `|sox -R ${phrase} -p repeat ${repeats}${stereo} trim 0 ${SECONDS}`,
  ];
  if (layers.tones)
    inputs.push(
      ...['-v', String(volumes.tones ?? 0.1)],
      `|sox -R -r ${rate} -c ${channels} -n -p synth ${SECONDS} ${layers.tones}`,
    );
  if (layers.noise)
    inputs.push(
      ...['-v', String(layers.noise[1])],
      `|sox -R -r ${rate} -c ${channels} -n -p synth ${SECONDS} ${layers.noise[0]}`,
    );
  return [
    ['sox', '-R', ...plucks(rate, layers.phrase), '-r', String(rate), '-c', '1', phrase],
    ['sox', '-R', '-m', ...inputs, '-b', String(bits), 'OUT', 'gain', '-n', '-1'],
  ];
}

export const MATERIALS: Material[] = [
  {
    name: 'pluck-pink-44k-24-stereo',
    ...{ rate: 44_100, bits: 24, channels: 2, kind: 'music + noise' },
    what: "the issue's case: plucked strings (a 6.4 s phrase of notes and chords) and stereo pink noise, 0.7 : 0.3",
    commands: music(
      'pluck-pink-44k-24-stereo',
      { rate: 44_100, bits: 24, channels: 2 },
      { phrase: MELODY, noise: ['pinknoise', 0.3] },
      { plucks: 0.7 },
    ),
  },
  {
    name: 'chords-48k-16-stereo',
    ...{ rate: 48_000, bits: 16, channels: 2, kind: 'music-like' },
    what: 'plucked four-note chords (a 7 s progression) over a 110 Hz sine drone (110.7 Hz right)',
    commands: music(
      'chords-48k-16-stereo',
      { rate: 48_000, bits: 16, channels: 2 },
      { phrase: CHORDS, tones: 'sine 110 sine 110.7' },
      { plucks: 0.8, tones: 0.15 },
    ),
  },
  {
    name: 'music-96k-24-stereo',
    ...{ rate: 96_000, bits: 24, channels: 2, kind: 'music-like' },
    what: 'plucked melody and chords (made at 48 kHz) over sine tones (220 / 330 Hz), a faint pink-noise floor (0.03)',
    commands: music(
      'music-96k-24-stereo',
      { rate: 96_000, bits: 24, channels: 2 },
      { phrase: [...MELODY, ...CHORDS], tones: 'sine 220 sine 330', noise: ['pinknoise', 0.03] },
      { plucks: 0.8, tones: 0.1 },
    ),
  },
  {
    name: 'noise-44k-16-mono',
    ...{ rate: 44_100, bits: 16, channels: 1, kind: 'noise-like' },
    what: 'brown noise with white noise, 0.7 : 0.15',
    commands: [
      [
        ...['sox', '-R', '-m', '-v', '0.7', '|sox -R -r 44100 -c 1 -n -p synth 300 brownnoise'],
        ...['-v', '0.15', '|sox -R -r 44100 -c 1 -n -p synth 300 whitenoise'],
        ...['-b', '16', 'OUT', 'gain', '-n', '-1'],
      ],
    ],
  },
  {
    name: 'music-48k-24-mono',
    ...{ rate: 48_000, bits: 24, channels: 1, kind: 'music-like' },
    what: 'plucked melody and chords over a 165 Hz triangle tone',
    commands: music(
      'music-48k-24-mono',
      { rate: 48_000, bits: 24, channels: 1 },
      { phrase: [...CHORDS, ...MELODY], tones: 'triangle 165' },
      { plucks: 0.8, tones: 0.1 },
    ),
  },
  {
    name: 'pinksine-48k-24-stereo',
    ...{ rate: 48_000, bits: 24, channels: 2, kind: 'noise-like' },
    what: "the bench's material before issue 51 (ffmpeg): pink noise at 0.25 with a 220 Hz sine, both channels alike",
    commands: [
      [
        ...['ffmpeg', '-hide_banner', '-nostdin', '-y', '-f', 'lavfi', '-i'],
        'anoisesrc=d=300:c=pink:a=0.25:r=48000:seed=51',
        ...['-f', 'lavfi', '-i', 'sine=f=220:d=300:r=48000', '-filter_complex'],
        '[0:a][1:a]amix=inputs=2,aformat=channel_layouts=stereo',
        ...['-c:a', 'pcm_s24le', '-f', 'wav', 'OUT'],
      ],
    ],
  },
];

/** The materials named (comma-separated), all when none; an unknown name throws. */
export function pickMaterials(names: string | undefined): Material[] {
  if (!names) return MATERIALS;
  return names.split(',').map((name) => {
    const found = MATERIALS.find((m) => m.name === name.trim());
    if (!found)
      throw new Error(`no material '${name}'; known: ${MATERIALS.map((m) => m.name).join(', ')}`);
    return found;
  });
}

export const materialsDir = () =>
  process.env.BENCH_MATERIALS_DIR ?? path.join(os.tmpdir(), 'takes-bench-materials');

/** Each material's file, made if the cache has none, with what ffprobe reads in it. */
export async function prepareMaterials(
  materials: Material[],
  runner: MediaRunner,
): Promise<PreparedMaterial[]> {
  const dir = materialsDir();
  fs.mkdirSync(dir, { recursive: true });
  const prepared: PreparedMaterial[] = [];
  for (const material of materials) {
    const hash = createHash('sha256')
      .update(JSON.stringify([material.rate, material.bits, material.channels, material.commands]))
      .digest('hex')
      .slice(0, 10);
    const file = path.join(dir, `${material.name}-${hash}.wav`);
    if (!fs.existsSync(file)) {
      const start = performance.now();
      // An older recipe's file of the same material goes.
      for (const stale of fs.readdirSync(dir).filter((f) => f.startsWith(`${material.name}-`)))
        fs.rmSync(path.join(dir, stale));
      const part = `${material.name}.part.wav`;
      for (const [program, ...args] of material.commands) {
        const binary = program === 'ffmpeg' ? runner.tools.ffmpeg : (program as string);
        await run(
          binary,
          args.map((a) => (a === 'OUT' ? part : a)),
          dir,
        );
      }
      fs.renameSync(path.join(dir, part), file);
      for (const left of fs.readdirSync(dir).filter((f) => f.startsWith(`${material.name}.`)))
        fs.rmSync(path.join(dir, left));
      console.log(
        `made ${material.name} in ${((performance.now() - start) / 1000).toFixed(1)} s: ${file}`,
      );
    }
    const probe = await probeAudio(runner, file, 60_000);
    const truth = `${probe.sampleRate} Hz, ${probe.bitDepth}-bit ${probe.codec}, ${probe.channels} ch, ${probe.duration?.toFixed(1)} s, ${(fs.statSync(file).size / 2 ** 20).toFixed(1)} MiB`;
    const expected = [material.rate, material.bits, material.channels, SECONDS];
    const found = [
      probe.sampleRate,
      probe.bitDepth,
      probe.channels,
      Math.round(probe.duration ?? 0),
    ];
    if (expected.join() !== found.join())
      throw new Error(`${material.name}: made ${truth}, not what it says`);
    prepared.push({ ...material, file, truth });
  }
  return prepared;
}

function run(program: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
    child.once('error', (error) =>
      reject(new Error(`${program} could not start (${error.message}): sox and ffmpeg are needed`)),
    );
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${program} failed (exit ${code}): ${stderr}`)),
    );
  });
}
