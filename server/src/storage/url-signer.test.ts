import { describe, expect, it } from 'vitest';
import { UrlSigner } from './url-signer';

describe('UrlSigner', () => {
  const signer = new UrlSigner('a-secret-that-is-long-enough-for-tests');
  const query = (url: string) => {
    const params = new URL(url, 'http://x').searchParams;
    return {
      expires: params.get('expires') ?? '',
      sig: params.get('sig') ?? '',
      name: params.get('name') ?? undefined,
    };
  };

  it('accepts its own signature until the expiry time', () => {
    const url = signer.sign('a/b.mp3', 1000, 'Song.mp3');
    expect(url.startsWith('/api/storage/a/b.mp3?')).toBe(true);
    expect(signer.verify('a/b.mp3', query(url), 999)).toBe(true);
    expect(signer.verify('a/b.mp3', query(url), 1000)).toBe(true);
    expect(signer.verify('a/b.mp3', query(url), 1001)).toBe(false);
  });

  it('refuses a changed key, expiry, file name or signature', () => {
    const url = signer.sign('a/b.mp3', 1000, 'Song.mp3');
    const q = query(url);
    expect(signer.verify('a/c.mp3', q, 0)).toBe(false);
    expect(signer.verify('a/b.mp3', { ...q, expires: '2000' }, 0)).toBe(false);
    expect(signer.verify('a/b.mp3', { ...q, name: 'Other.mp3' }, 0)).toBe(false);
    expect(
      signer.verify(
        'a/b.mp3',
        { ...q, sig: q.sig.replace(/^./, (c) => (c === '0' ? '1' : '0')) },
        0,
      ),
    ).toBe(false);
    expect(signer.verify('a/b.mp3', { ...q, sig: 'zz' }, 0)).toBe(false);
  });

  it('refuses a signature made with another secret', () => {
    const other = new UrlSigner('another-secret-that-is-long-enough!!');
    expect(signer.verify('k', query(other.sign('k', 1000)), 0)).toBe(false);
  });
});
