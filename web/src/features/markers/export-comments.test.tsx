import { MARKER_FORMAT_LABELS } from '@takes/contract';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { ExportComments } from './export-comments';

afterEach(cleanup);

function open() {
  fireEvent.click(screen.getByRole('button', { name: 'Export comments…' }));
  return screen.getByRole('dialog', { name: 'Export comments' });
}

const optionNames = (select: HTMLSelectElement) =>
  Array.from(select.options).map((option) => option.textContent);

describe('ExportComments', () => {
  it("offers every format, and links to the version's marker file as chosen", async () => {
    render(<ExportComments source={{ versionId: 'v1' }} />);
    const dialog = open();
    const format = within(dialog).getByRole<HTMLSelectElement>('combobox', { name: 'Format' });
    expect(optionNames(format)).toEqual([
      MARKER_FORMAT_LABELS.wav,
      MARKER_FORMAT_LABELS.midi,
      MARKER_FORMAT_LABELS.reaper,
      MARKER_FORMAT_LABELS.audacity,
    ]);
    const link = within(dialog).getByRole<HTMLAnchorElement>('link', { name: 'Download' });
    expect(link.hasAttribute('download')).toBe(true);
    expect(link.getAttribute('href')).toBe('/api/versions/v1/markers?format=midi&resolved=exclude');

    fireEvent.change(format, { target: { value: 'reaper' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Include resolved' }));
    expect(link.getAttribute('href')).toBe(
      '/api/versions/v1/markers?format=reaper&resolved=include',
    );
    expect(await axeViolations()).toEqual([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('leaves the WAV out for those who may not download, and Esc closes', () => {
    render(<ExportComments source={{ versionId: 'v1' }} allowWav={false} />);
    const dialog = open();
    const format = within(dialog).getByRole<HTMLSelectElement>('combobox', { name: 'Format' });
    expect(optionNames(format)).not.toContain(MARKER_FORMAT_LABELS.wav);
    expect(optionNames(format)).toHaveLength(3);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("links a share link's listeners to the link's marker file", () => {
    render(<ExportComments source={{ hash: 'abc123' }} />);
    const dialog = open();
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Format' }), {
      target: { value: 'wav' },
    });
    expect(within(dialog).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(
      '/api/links/hash/abc123/markers?format=wav&resolved=exclude',
    );
  });
});
