import { describe, expect, it } from 'vitest';
import { uploadDetail } from './processing-stages';
import { progressMeter, uploadMetadata } from './upload-client';

describe('upload progress', () => {
  it('measures the speed over the last seconds and the time left at it', () => {
    let now = 0;
    const meter = progressMeter(() => now);
    expect(meter(0, 60_000_000)).toMatchObject({
      percent: 0,
      bytesPerSecond: 0,
      secondsLeft: null,
    });
    now = 2000;
    const after = meter(4_000_000, 60_000_000);
    expect(after.bytesPerSecond).toBe(2_000_000);
    expect(after.secondsLeft).toBe(28);
    expect(after.percent).toBe(6);
    expect(uploadDetail(after)).toBe('3.8 MB of 57.2 MB · 1.9 MB/s · 28 s left');
  });

  it('names the file and the target in the upload metadata', () => {
    const file = new File(['x'], 'Take 3.wav', { type: 'audio/wav' });
    expect(
      uploadMetadata(file, {
        kind: 'version',
        projectId: 'p1',
        branchId: 'b1',
        commitMessage: 'Louder',
        tags: ['mix'],
      }),
    ).toEqual({
      kind: 'version',
      filename: 'Take 3.wav',
      filetype: 'audio/wav',
      project_id: 'p1',
      branch_id: 'b1',
      commit_message: 'Louder',
      tags: '["mix"]',
    });
  });
});
