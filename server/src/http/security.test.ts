import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security';

describe('securityHeaders', () => {
  it('is helmet’s whole set, worked out once: CSP of our own origin, HSTS only over https', () => {
    const plain = securityHeaders({ https: false });
    expect(Object.keys(plain).sort()).toEqual([
      'content-security-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'x-content-type-options',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-frame-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ]);
    expect(plain['content-security-policy']).not.toContain('upgrade-insecure-requests');
    const secure = securityHeaders({ https: true, storageOrigin: 'https://bucket.example.com' });
    expect(secure['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(secure['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(secure['content-security-policy']).toContain(
      "media-src 'self' blob: data: https://bucket.example.com",
    );
  });
});
