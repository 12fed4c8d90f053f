import { describe, expect, it } from 'vitest';
import { deviceName } from './device-name';

describe('deviceName', () => {
  it('keeps a given name, cleaned of control characters and extra spaces, at most 100 long', () => {
    expect(deviceName('  takes CLI on studio-mac ', undefined)).toBe('takes CLI on studio-mac');
    expect(deviceName('evil\u0000name\u202e\n\tline', undefined)).toBe('evil name line');
    expect(deviceName('x'.repeat(150), undefined)).toHaveLength(100);
  });

  it('falls back to the User-Agent, then to "Desktop app"', () => {
    expect(deviceName('   ', 'curl/8.5.0')).toBe('curl/8.5.0');
    expect(
      deviceName(
        undefined,
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      ),
    ).toBe('Chrome on macOS');
    expect(deviceName(undefined, 'Mozilla/5.0 Takes/1.2 Electron/33.0.0')).toBe('Desktop app');
    expect(deviceName(undefined, undefined)).toBe('Desktop app');
    expect(deviceName(undefined, '\u0001')).toBe('Desktop app');
  });
});
