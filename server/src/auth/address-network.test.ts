import { describe, expect, it } from 'vitest';
import { addressNetwork } from './address-network';

describe('addressNetwork', () => {
  it('counts an IPv6 address as its /64, however it is written', () => {
    expect(addressNetwork('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(addressNetwork('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressNetwork('::1')).toBe('0:0:0:0::/64');
    expect(addressNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressNetwork('2001:db8:1:2:3:4:192.0.2.1')).toBe('2001:db8:1:2::/64');
  });

  it('keeps an IPv4 address whole, also IPv4-mapped (not one /64 for every IPv4 client)', () => {
    expect(addressNetwork('192.0.2.1')).toBe('192.0.2.1');
    expect(addressNetwork('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressNetwork('::FFFF:c000:201')).toBe('192.0.2.1');
    expect(addressNetwork('::ffff:198.51.100.7')).not.toBe(addressNetwork('::ffff:192.0.2.1'));
  });

  it('returns anything else unchanged', () => {
    expect(addressNetwork('unknown')).toBe('unknown');
    expect(addressNetwork('')).toBe('');
  });
});
