import { describe, expect, it } from 'vitest';
import type { VersionsTable } from '../../db/schema';
import { fewerPeaks, LIST_PEAKS, toVersion } from './version-view';

const overview = Array.from({ length: 1000 }, (_, i) => ((i * 7) % 100) / 100);
const row = {
  id: 'v1',
  project_id: 'p1',
  branch_id: 'b1',
  version_number: 1,
  message: null,
  tags: '[]',
  original_key: null,
  original_name: null,
  original_size: null,
  original_format: null,
  status: 'completed',
  error: null,
  metadata: null,
  waveform: JSON.stringify({
    overview,
    peaksKey: 'peaks/v1.json',
    peaksPerSecond: 20,
    duration: 50,
  }),
  loudness: null,
  renditions: '{}',
  file_url: null,
  review_status: 'in_review',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
} satisfies VersionsTable;

describe('toVersion', () => {
  it('gives a version its whole overview, and a list the loudest of each bucket', () => {
    expect(toVersion(row).waveform_data?.peaks).toEqual(overview);
    const listed = toVersion(row, { peaks: LIST_PEAKS }).waveform_data;
    expect(listed?.peaks).toHaveLength(LIST_PEAKS);
    expect(listed?.duration).toBe(50);
    expect(Math.max(...(listed?.peaks ?? []))).toBe(Math.max(...overview));
    expect(fewerPeaks([0.1, 0.5, 0.2, 0.3], 2)).toEqual([0.5, 0.3]);
    expect(fewerPeaks([0.1], 2)).toEqual([0.1]);
  });
});
