import { describe, expect, it } from 'vitest';
import { mailText } from './mail-text';

describe('mailText: user-written text in an email', () => {
  it('breaks whatever a mail program would turn into a link', () => {
    expect(mailText('Urgent: sign in at https://evil.example/login')).toBe(
      'Urgent: sign in at https[:]//evil[.]example/login',
    );
    expect(mailText('Visit www.label.example.com today')).toBe(
      'Visit www[.]label[.]example[.]com today',
    );
    expect(mailText('write to boss@evil.example')).toBe('write to boss[@]evil[.]example');
    expect(mailText('ftp://x.example and mailto:a@b.co')).toBe(
      'ftp[:]//x[.]example and mailto:a[@]b[.]co',
    );
    expect(mailText('HTTP://EVIL.EXAMPLE')).toBe('HTTP[:]//EVIL[.]EXAMPLE');
  });

  it('leaves ordinary names and titles alone', () => {
    for (const name of [
      'Night Drive',
      'Mix v2.1',
      'Final.mp3 (master)',
      'Björk & Co. — Demos',
      '@home',
    ])
      expect(mailText(name)).toBe(name);
  });

  it('keeps it on one line and cuts it to a length', () => {
    expect(mailText('  two\nlines\r\n\tand\u2028more  ')).toBe('two lines and more');
    const long = mailText('a'.repeat(500));
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
    expect(mailText('abcdef', 4)).toBe('abc…');
  });
});
