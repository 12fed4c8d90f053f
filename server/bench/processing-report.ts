/**
 * What `bench:processing` prints at the end: per material, the bare 320k encode, the floor,
 * processing as the client saw it and the ratio with PASS/FAIL; the stages of processing's time;
 * the three processes' ends and CPU inside processing against the floor's.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { PreparedMaterial } from './processing-materials';
import {
  cpuByRole,
  endsByRole,
  spanOfThree,
  stagesOf,
  STAGES,
  THREE,
  type ChildRun,
  type ProcessingRound,
} from './processing-trace';
import { median } from './support';

export const TARGET = 1.3;

/** One round of one material. */
export interface RoundResult {
  bare: number;
  /** The three together at processing's priorities (timed from the bench), and their processes. */
  floor: number;
  floorChildren: ChildRun[];
  /** The same at one priority. */
  evenFloor: number;
  /** Upload answer → 'completed' as the polling client saw it, and as the live event came. */
  client: number;
  live: number;
  polls: number;
  processing: ProcessingRound;
  /** The server's (or worker's) own CPU from the answer to the client seeing 'completed'. */
  serverCpu: number;
  /** Cores' worth of CPU other processes on the machine used during the bare encode, the floor
   * (at processing's priorities) and processing. */
  othersBare: number;
  othersFloor: number;
  othersProcessing: number;
  /** The bench's own CPU during the floor, and from the upload's answer to 'completed'. */
  benchFloor: number;
  benchProcessing: number;
}

export interface MaterialRuns {
  material: PreparedMaterial;
  rounds: RoundResult[];
  /** Rounds measured again because other processes disturbed them, and disturbed ones kept. */
  remeasured: number;
  disturbedKept: number;
}

export const newRuns = (material: PreparedMaterial): MaterialRuns => ({
  material,
  rounds: [],
  remeasured: 0,
  disturbedKept: 0,
});

/** A figure of every round. */
const each = (runs: MaterialRuns, pick: (round: RoundResult) => number) => runs.rounds.map(pick);
const med = (runs: MaterialRuns, pick: (round: RoundResult) => number) => median(each(runs, pick));

const s = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

/** Prints rows as columns padded to their widest cell (the first column left-aligned). */
function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export function ratioOf(runs: MaterialRuns): number {
  return med(runs, (r) => r.client) / med(runs, (r) => r.bare);
}

/** The floor's own first start → last end of the three, s. */
function floorSpan(round: RoundResult): number {
  const { start, end } = spanOfThree(round.floorChildren);
  return (end - start) / 1000;
}

/** One round of one material, as it happened. */
export function roundLine(label: string, r: RoundResult): string {
  const stages = stagesOf(r.processing);
  return (
    `${label}: bare ${s(r.bare)} s, floor ${s(r.floor)} s (one priority ${s(r.evenFloor)} s), ` +
    `processing ${s(r.client)} s as the client saw it (${r.polls} polls; live event ${s(r.live)} s), ` +
    `${s(r.client / r.bare, 3)}× bare, ${s(r.client / r.floor, 3)}× floor; ` +
    `pick-up ${r.processing.pickupMs.toFixed(0)} ms; stages ${stages.map((v) => s(v)).join(' + ')} s; ` +
    `the server's own CPU until 'completed' ${s(r.serverCpu)} s; other processes used ` +
    `${s(r.othersBare)} cores during the bare encode, ${s(r.othersFloor)} during the floor, ` +
    `${s(r.othersProcessing)} during processing; the bench's own CPU ${s(r.benchFloor)} s during ` +
    `the floor, ${s(r.benchProcessing)} s from the answer to 'completed'`
  );
}

export function printMaterials(materials: PreparedMaterial[]): void {
  console.log('materials (what ffprobe reads in each file, and what it is):');
  for (const m of materials) console.log(`  ${m.name}: ${m.truth}; ${m.kind}: ${m.what}`);
}

/** The summary table, the stage table and the process table; answers whether all passed. */
export function printReport(all: MaterialRuns[], pollMs: number): boolean {
  console.log('');
  console.log(
    `== processing, upload answer → 'completed' as a client polling GET /api/versions/:id/processing every ${pollMs} ms sees it (medians over the rounds; goal <= ${TARGET}× the bare 320k encode) ==`,
  );
  table(
    [
      ...['material', 'rate', 'bits', 'ch', 'content', 'rounds', 'bare s', 'floor s'],
      ...['client s', '× bare', 'goal', '× floor', '× bare by round', 'live event s'],
    ],
    all.map((runs) => {
      const ratio = ratioOf(runs);
      const m = runs.material;
      return [
        ...[m.name, `${m.rate / 1000} kHz`, `${m.bits}`, m.channels === 2 ? 'stereo' : 'mono'],
        ...[m.kind, `${runs.rounds.length}`, s(med(runs, (r) => r.bare))],
        ...[s(med(runs, (r) => r.floor)), s(med(runs, (r) => r.client))],
        ...[s(ratio, 3), ratio <= TARGET ? 'PASS' : 'FAIL'],
        s(med(runs, (r) => r.client) / med(runs, (r) => r.floor), 3),
        each(runs, (r) => r.client / r.bare)
          .map((x) => s(x))
          .join(' '),
        s(med(runs, (r) => r.live)),
      ];
    }),
  );

  console.log('');
  console.log(
    "== where processing's time goes (medians, s): the five stages add up to the client's figure round by round; 'floor encodes' is the floor's own first start → last end ==",
  );
  table(
    [
      ...['material', 'pick-up', ...STAGES.map((name) => name), 'floor encodes'],
      ...['encodes − floor', 'client − floor', 'live − completed'],
    ],
    all.map((runs) => [
      runs.material.name,
      s(med(runs, (r) => (r.processing.claimed - r.processing.answer) / 1000)),
      ...STAGES.map((_, i) => s(med(runs, (r) => stagesOf(r.processing)[i] ?? NaN))),
      s(med(runs, floorSpan)),
      s(med(runs, (r) => (stagesOf(r.processing)[1] ?? NaN) - floorSpan(r))),
      s(med(runs, (r) => r.client - r.floor)),
      s(med(runs, (r) => (r.processing.live - r.processing.stored.completed) / 1000)),
    ]),
  );

  console.log('');
  console.log(
    "== the processes (medians): each one's end, s from the three's first start, and its CPU s, floor / in processing; the server's own CPU from the answer to 'completed'; other processes' CPU (cores), bare / floor / processing; rounds measured again as disturbed ==",
  );
  table(
    [
      ...['material', ...THREE.flatMap((role) => [`${role} ends`, `${role} CPU`]), 'FLAC CPU'],
      ...['server CPU', 'others (cores)', 'remeasured'],
    ],
    all.map((runs) => {
      type Pick = (children: ChildRun[]) => Partial<Record<string, number>>;
      const both = (pick: Pick, role: string) =>
        `${s(med(runs, (r) => pick(r.floorChildren)[role] ?? NaN))} / ${s(med(runs, (r) => pick(r.processing.children)[role] ?? NaN))}`;
      return [
        runs.material.name,
        ...THREE.flatMap((role) => [both(endsByRole, role), both(cpuByRole, role)]),
        both(cpuByRole, 'flac'),
        s(med(runs, (r) => r.serverCpu)),
        [med(runs, (r) => r.othersBare), med(runs, (r) => r.othersFloor)]
          .concat(med(runs, (r) => r.othersProcessing))
          .map((x) => s(x))
          .join(' / '),
        `${runs.remeasured}${runs.disturbedKept ? ` (${runs.disturbedKept} kept disturbed)` : ''}`,
      ];
    }),
  );
  const failed = all.filter((runs) => !(ratioOf(runs) <= TARGET));
  console.log('');
  console.log(
    failed.length === 0
      ? `OVERALL: PASS (every material <= ${TARGET}× its bare 320k encode, as the client sees it)`
      : `OVERALL: FAIL (${failed.length} of ${all.length} above ${TARGET}×: ${failed.map((r) => `${r.material.name} ${s(ratioOf(r), 3)}×`).join(', ')})`,
  );
  return failed.length === 0;
}

/** Load averages and the CPU counters (for steal) now. */
export function machineNow(): { load: string; cpu: number[] } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  return {
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    cpu: line.split(/\s+/).slice(1).map(Number),
  };
}

/** The share of CPU time the hypervisor took (steal) and the machine was idle, between two readings. */
export function stealBetween(before: number[], after: number[]): string {
  const delta = after.map((v, i) => v - (before[i] ?? 0));
  // user nice system idle iowait irq softirq steal (guest time is counted in user already)
  const total = delta.slice(0, 8).reduce((a, b) => a + b, 0);
  const pct = (i: number) => (((delta[i] ?? 0) / total) * 100).toFixed(1);
  return `steal ${pct(7)} %, idle ${pct(3)} %`;
}
