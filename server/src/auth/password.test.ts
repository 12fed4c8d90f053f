import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password-hash';
import { isCommonPassword, passwordProblem } from './password-policy';

describe('password hashing', () => {
  it('hashes with scrypt at the OWASP cost and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', stored)).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same-password')).not.toBe(await hashPassword('same-password'));
  });
});

describe('password policy', () => {
  it('refuses the most common passwords, whatever their case', () => {
    for (const bad of ['password', '123456', 'qwerty', 'Football', 'iloveyou']) {
      expect(isCommonPassword(bad), bad).toBe(true);
    }
    expect(passwordProblem('PASSWORD')).toBe(
      'This password is one of the most common passwords. Please choose another.',
    );
  });

  it('accepts an uncommon password', () => {
    expect(passwordProblem('violet-mixdown-47')).toBeUndefined();
  });
});
