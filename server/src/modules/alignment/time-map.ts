import { mapTime, type AlignmentSegment } from './align';

/** The same map read the other way: times of `to` onto `from`. */
export function inverted(segments: readonly AlignmentSegment[]): AlignmentSegment[] {
  return segments
    .map((s) => ({
      from_start: s.to_start,
      from_end: s.to_end,
      to_start: s.from_start,
      to_end: s.from_end,
    }))
    .sort((a, b) => a.from_start - b.from_start);
}

export interface MappedTimes {
  timestamp: number;
  end_timestamp: number | null;
}

/**
 * Where a comment's point or passage is on the other version, or null when it is gone. A passage
 * partly removed keeps what is left of it: from the first piece of it still there to the last.
 */
export function mapTimes(
  segments: readonly AlignmentSegment[],
  timestamp: number,
  endTimestamp: number | null,
): MappedTimes | null {
  if (endTimestamp === null || endTimestamp <= timestamp) {
    const mapped = mapTime(segments, timestamp);
    if (mapped === null) return null;
    return {
      timestamp: round(mapped),
      end_timestamp: endTimestamp === null ? null : round(mapped),
    };
  }
  const inside = segments.filter((s) => s.from_end >= timestamp && s.from_start <= endTimestamp);
  const first = inside[0];
  const last = inside[inside.length - 1];
  if (!first || !last) return null;
  const start = mapTime([first], Math.max(timestamp, first.from_start));
  const end = mapTime([last], Math.min(endTimestamp, last.from_end));
  if (start === null || end === null) return null;
  return { timestamp: round(start), end_timestamp: round(Math.max(start, end)) };
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
