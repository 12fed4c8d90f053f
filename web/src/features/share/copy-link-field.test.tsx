import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CopiedStatus, COPIED_MS, CopyLinkField, useCopied } from './copy-link-field';

const url = 'https://takes.example/share/k1';

/** One field as a dialog uses it: the copied state kept by `useCopied`, the status beside it. */
function Field({ suffix }: { suffix?: string }) {
  const [copied, setCopied] = useCopied<true>();
  return (
    <>
      <CopyLinkField
        label="Share URL"
        url={url}
        copied={copied === true}
        onCopied={() => setCopied(true)}
        copyLabelSuffix={suffix}
      />
      <CopiedStatus copied={copied === true} />
    </>
  );
}

let writeText: ReturnType<typeof vi.fn>;

beforeEach(() => {
  writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

async function click(button: HTMLElement) {
  await act(async () => {
    fireEvent.click(button);
    await Promise.resolve();
  });
}

describe('CopyLinkField', () => {
  it("copies the address, reads 'Copied!' for 2 seconds and says so to a screen reader", async () => {
    render(<Field />);
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Share URL' });
    expect(field.value).toBe(url);
    expect(field.readOnly).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('');

    vi.useFakeTimers();
    await click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(url);
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Link copied to the clipboard');

    act(() => {
      vi.advanceTimersByTime(COPIED_MS - 1);
    });
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('names the button after the link it copies where several are listed', async () => {
    render(<Field suffix="link for Ana" />);
    await click(screen.getByRole('button', { name: 'Copy link for Ana' }));
    expect(screen.getByRole('button', { name: 'Copied! link for Ana' })).toBeTruthy();
  });

  it('selects the address to copy by hand when the clipboard refuses', async () => {
    writeText.mockRejectedValue(new Error('denied'));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<Field />);
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Share URL' });
    await click(screen.getByRole('button', { name: 'Copy' }));
    await act(async () => {
      await Promise.resolve();
    });
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, url.length]);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});
