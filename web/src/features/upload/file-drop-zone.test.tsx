import { PROJECT_MESSAGES } from '@takes/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { audioFileProblem, isAudioFile } from './audio-file';
import { FileDropZone } from './file-drop-zone';

describe('audio file picking', () => {
  afterEach(cleanup);

  it('offers AIFF in the picker and says which formats are supported', () => {
    render(<FileDropZone file={null} onFile={() => {}} />);
    const input = screen.getByLabelText('Audio file');
    const accept = (input.getAttribute('accept') ?? '').split(',');
    for (const entry of ['.aif', '.aiff', '.aifc', 'audio/aiff', '.wav', '.mp3', '.flac', '.m4a'])
      expect(accept).toContain(entry);
    expect(
      screen.getByText('Supported formats: MP3, WAV, AIFF, FLAC, AAC/M4A (max 500MB)'),
    ).toBeTruthy();
  });

  it('takes AIFF and AIFF-C by extension or type, and still refuses what is not audio', () => {
    for (const file of [
      { name: 'Bounce.aif', type: '' },
      { name: 'Bounce.AIFF', type: '' },
      { name: 'Bounce.aifc', type: '' },
      { name: 'bounce', type: 'audio/aiff' },
      { name: 'bounce', type: 'audio/x-aiff' },
    ])
      expect(audioFileProblem({ ...file, size: 1000 })).toBeNull();
    expect(isAudioFile({ name: 'notes.txt', type: 'text/plain' })).toBe(false);
    expect(audioFileProblem({ name: 'notes.txt', type: 'text/plain', size: 10 })).toBe(
      'Invalid file type. Please upload an MP3, WAV, AIFF, FLAC, or AAC file.',
    );
    expect(PROJECT_MESSAGES.invalidType).toBe(
      'Invalid file type. Please upload an MP3, WAV, AIFF, FLAC, or AAC file.',
    );
  });
});
