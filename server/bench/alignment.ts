import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  alignFeatures,
  ALIGN_SAMPLE_RATE,
  featuresOf,
  mapTime,
  inverted,
  type Features,
} from '../src/modules/alignment';
import {
  changedRegions,
  CHANGES_SAMPLE_RATE,
  type ChangedRegion,
} from '../src/modules/alignment/changes';
import {
  evaluationSet,
  type EvalPair,
  type sourcesFor,
  RATE,
  sox,
  SOURCE_SECONDS,
  SOURCES,
  HELD_OUT_SOURCES,
  FRESH_SOURCES,
  THIRD_SOURCES,
  FOURTH_SOURCES,
  FIFTH_SOURCES,
  mix,
  peakScale,
  writeWav,
} from './alignment-set';

// npm run bench:alignment — the alignment of versions judged on a generated evaluation set
// (bench/alignment-set.ts: three sources, nine edits each, with their true time maps): per pair
// and overall, the share of anchor times (every 0.3 s of the original) mapped within 100 ms of
// the truth, the anchors in removed material reported as having no counterpart, and the CPU
// seconds one alignment of two 5-minute versions takes (ffmpeg's decode included). Then what
// changed: each edited version against its original (on the edited one's timeline), the true
// changed regions found with their edges' error, and regions found where nothing changed.

const TOLERANCE_S = 0.1;
const ANCHOR_STEP_S = 0.3;

/** CPU seconds this process and its waited-for children have used (Linux). */
function cpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
  return ticks / 100;
}

function decode(file: string, rate = ALIGN_SAMPLE_RATE): Float32Array {
  const result = spawnSync(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(rate), '-f', 'f32le', '-'],
    { maxBuffer: 1024 * 1024 * 1024 },
  );
  if (result.status !== 0)
    throw new Error(`ffmpeg could not decode ${file}: ${String(result.stderr)}`);
  const bytes = result.stdout;
  return new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 4));
}

function align(a: string, b: string) {
  return alignFeatures(featuresOf(decode(a)), featuresOf(decode(b)));
}

const dir = path.join(os.tmpdir(), 'takes-alignment-set');
/** Prints the alignment and changes figures of one evaluation set. */
async function evaluate(title: string, pairs: EvalPair[]) {
  console.log(`\n## ${title}\n`);
  let hits = 0;
  let anchors = 0;
  let removedRight = 0;
  let removedAll = 0;
  const rows: string[] = [];
  const changeRows: string[] = [];
  const EDGE_TOLERANCE_S = 0.2;
  let trueRegions = 0;
  let foundRegions = 0;
  let edgesWithin = 0;
  let falseTotal = 0;
  let ditherFalse = 0;
  const worst: string[] = [];
  for (const pair of pairs) {
    const started = cpuSeconds();
    const result = align(pair.original, pair.edited);
    const cpu = cpuSeconds() - started;
    let pairHits = 0;
    let pairAnchors = 0;
    for (let t = 0.25; t < SOURCE_SECONDS - 0.5; t += ANCHOR_STEP_S) {
      const truth = pair.truth(t);
      const mapped = mapTime(result.segments, t);
      if (truth.length === 0) {
        removedAll += 1;
        if (mapped === null) removedRight += 1;
        continue;
      }
      pairAnchors += 1;
      const hit = mapped !== null && truth.some((want) => Math.abs(want - mapped) <= TOLERANCE_S);
      if (hit) pairHits += 1;
      else if (worst.length < 40)
        worst.push(
          `${pair.source} / ${pair.edit}: ${t.toFixed(2)} s → ${mapped?.toFixed(3) ?? 'none'} (true ${truth.map((x) => x.toFixed(3)).join(' or ')})`,
        );
    }
    hits += pairHits;
    anchors += pairAnchors;
    rows.push(
      `| ${pair.source} | ${pair.edit} | ${pairHits}/${pairAnchors} (${((100 * pairHits) / pairAnchors).toFixed(1)} %) | ${result.confidence.toFixed(2)} | ${result.segments.length} | ${cpu.toFixed(2)} |`,
    );

    const changes = await changedRegions(
      decode(pair.edited, CHANGES_SAMPLE_RATE),
      decode(pair.original, CHANGES_SAMPLE_RATE),
      inverted(result.segments),
    );
    const overlaps = (r: ChangedRegion, t: EvalPair['changed'][number]) =>
      r.start < t.end && r.end > t.start - (t.slide ?? 0);
    const edges = pair.changed.map((truth) => {
      const found = changes.regions.filter((r) => overlaps(r, truth));
      if (found.length === 0) return null;
      const start = Math.min(...found.map((r) => r.start));
      const end = Math.min(SOURCE_SECONDS, Math.max(...found.map((r) => r.end)));
      // A repeat's inserted copy may sit anywhere back to `slide`: the best placement counts.
      const back = Math.min(
        truth.slide ?? 0,
        Math.max(0, (truth.start - start + truth.end - end) / 2),
      );
      return Math.max(Math.abs(start - (truth.start - back)), Math.abs(end - (truth.end - back)));
    });
    const falseRegions = changes.regions.filter((r) => !pair.changed.some((t) => overlaps(r, t)));
    trueRegions += pair.changed.length;
    foundRegions += edges.filter((e) => e !== null).length;
    edgesWithin += edges.filter((e) => e !== null && e <= EDGE_TOLERANCE_S).length;
    falseTotal += falseRegions.length;
    if (pair.edit === 'other dither') ditherFalse += falseRegions.length;
    changeRows.push(
      `| ${pair.source} | ${pair.edit} | ${pair.changed.map((t) => `${t.start}–${t.end}`).join(', ') || '—'} | ` +
        `${changes.regions.map((r) => `${r.start.toFixed(2)}–${r.end.toFixed(2)}${r.inserted ? ' (inserted)' : ` (${r.level_db} dB)`}`).join(', ') || '—'} | ` +
        `${edges.map((e) => (e === null ? 'missed' : `${(e * 1000).toFixed(0)} ms`)).join(', ') || '—'} | ${falseRegions.length} |`,
    );
  }

  console.log('| source | edit | anchors within 100 ms | confidence | segments | CPU s |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(
    `\nOverall: ${hits}/${anchors} anchors within 100 ms (${((100 * hits) / anchors).toFixed(1)} %, goal ≥ 95 %); ` +
      `${removedRight}/${removedAll} anchors in removed material reported as having no counterpart.`,
  );
  if (worst.length > 0)
    console.log(`\nMissed anchors (first ${worst.length}):\n${worst.join('\n')}`);

  console.log(
    '\n| source | edit | truly changed (s) | found (s) | edge error | false regions |\n|---|---|---|---|---|---|',
  );
  for (const row of changeRows) console.log(row);
  console.log(
    `\nChanges: ${foundRegions}/${trueRegions} changed regions found, ${edgesWithin}/${trueRegions} with both edges within 200 ms (goal: all); ` +
      `${falseTotal} false regions over all pairs; ${ditherFalse} on the dither-only pairs (goal 0).`,
  );
}

// `npm run bench:alignment -- third` evaluates only the sets named (dev, held-out, second,
// third, fourth, fifth); with none, all six. The two 5-minute versions are always measured.
const TITLES: Record<string, string> = {
  dev: 'The development set (seeds 11, 23, 37)',
  'held-out':
    'Held out: other music of the same kinds, never used to choose the constants (seeds 101, 203, 307)',
  second:
    'Second held-out set (seeds 409, 503, 601): made in session 27; its one miss chose the dip rule of session 29',
  third:
    'Third held-out set (seeds 701, 809, 907): made in session 29, never looked at before the dip rule; its one miss chose the crossing rule',
  fourth:
    'Fourth held-out set (seeds 1009, 1103, 1201): made in session 29, never looked at before the crossing rule; its two misses chose the reach back',
  fifth:
    'Fifth held-out set (seeds 1301, 1409, 1511): made in session 29, never looked at before the reach back',
};
const inTemp = (folder: string) => path.join(os.tmpdir(), folder);
const sets: [string, string, ReturnType<typeof sourcesFor>][] = [
  ['dev', dir, SOURCES],
  ['held-out', inTemp('takes-alignment-held-out'), HELD_OUT_SOURCES],
  ['second', inTemp('takes-alignment-fresh'), FRESH_SOURCES],
  ['third', inTemp('takes-alignment-third'), THIRD_SOURCES],
  ['fourth', inTemp('takes-alignment-fourth'), FOURTH_SOURCES],
  ['fifth', inTemp('takes-alignment-fifth'), FIFTH_SOURCES],
];
const chosen = process.argv.slice(2);
for (const [name, setDir, sources] of sets)
  if (chosen.length === 0 || chosen.includes(name))
    await evaluate(TITLES[name] ?? name, evaluationSet(setDir, sources));

// Two 5-minute versions: the chords source five times over (each pass from its own seed),
// against the same with 2 s of intro cut and +3 dB.
const long = path.join(dir, 'five-minutes.wav');
const longEdited = path.join(dir, 'five-minutes-edited.wav');
if (!fs.existsSync(longEdited)) {
  const parts = SOURCES.flatMap((source) => [source.make(), source.make()]).slice(0, 5);
  const files = parts.map((stems, i) => {
    const file = path.join(dir, `five-minutes-part-${i}.wav`);
    const signal = mix(stems);
    writeWav(file, signal, peakScale(signal));
    return file;
  });
  sox(...files, '-b', '24', long, 'trim', '0', '300');
  sox(long, longEdited, 'trim', '2', 'gain', '3');
}
const cpuStart = cpuSeconds();
const wallStart = Date.now();
const decoded = [decode(long), decode(longEdited)] as const;
const decodeCpu = cpuSeconds() - cpuStart;
const features = decoded.map((signal) => featuresOf(signal));
const featuresCpu = cpuSeconds() - cpuStart - decodeCpu;
const longResult = alignFeatures(features[0] as Features, features[1] as Features);
const cpu = cpuSeconds() - cpuStart;
const warpCpu = cpu - decodeCpu - featuresCpu;
console.log(
  `\nTwo 5-minute versions (${((fs.statSync(long).size - 44) / RATE / 3 / 60).toFixed(1)} min): ${cpu.toFixed(2)} s of CPU ` +
    `(${((Date.now() - wallStart) / 1000).toFixed(2)} s wall), goal ≤ 3 s; confidence ${longResult.confidence.toFixed(2)}, ` +
    `${longResult.segments.length} segments (decode ${decodeCpu.toFixed(2)} s, features ${featuresCpu.toFixed(2)} s, warping ${warpCpu.toFixed(2)} s).`,
);

// What changed between the same two 5-minute versions, on both timelines (as the job does it).
const changesStart = cpuSeconds();
const wide = [decode(long, CHANGES_SAMPLE_RATE), decode(longEdited, CHANGES_SAMPLE_RATE)] as const;
const both = [
  await changedRegions(wide[0], wide[1], longResult.segments),
  await changedRegions(wide[1], wide[0], inverted(longResult.segments)),
];
console.log(
  `What changed, both timelines: ${(cpuSeconds() - changesStart).toFixed(2)} s of CPU (decode included); ` +
    `${both.map((c) => c.regions.length).join(' and ')} regions (the edit's 2 s of intro on the original's timeline only).`,
);
