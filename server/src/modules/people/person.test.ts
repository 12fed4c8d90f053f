import { describe, expect, it } from 'vitest';
import { listenerName, memberName } from '.';

describe('a person presenter: one way to name a person', () => {
  it("members see the display name, else the account's name", () => {
    const ana = { display_name: ' DJ Ana ', user_name: 'Ana Bell', email: 'ana@label.example' };
    expect(memberName(ana)).toBe('DJ Ana');
    expect(memberName({ ...ana, display_name: '  ' })).toBe('Ana Bell');
    expect(memberName({ ...ana, display_name: null })).toBe('Ana Bell');
  });

  it('members see the part of the address before the @ when no name was chosen (email and password sign-up)', () => {
    // better-auth keeps an email-and-password sign-up's `name` blank, or the address itself.
    for (const user_name of ['', '   ', null, 'lena.k@studio.example', 'LENA.K@STUDIO.EXAMPLE'])
      expect(memberName({ display_name: null, user_name, email: 'lena.k@studio.example' })).toBe(
        'lena.k',
      );
    expect(memberName({ user_name: 'lena.k@studio.example' })).toBe('lena.k');
  });

  it('a link listener never sees any part of an address', () => {
    const lena = {
      display_name: null,
      user_name: 'lena.k@studio.example',
      email: 'lena.k@studio.example',
    };
    expect(listenerName(lena)).toBeNull();
    expect(listenerName({ ...lena, user_name: '' })).toBeNull();
    expect(listenerName({ ...lena, display_name: 'mail me at lena.k@studio.example' })).toBeNull();
    expect(listenerName({ ...lena, display_name: 'Lena K' })).toBe('Lena K');
    expect(listenerName({ ...lena, user_name: 'Lena Kraus' })).toBe('Lena Kraus');
  });

  it('names no one when nothing names them', () => {
    expect(memberName({})).toBeNull();
    expect(memberName({ display_name: ' ', user_name: ' ', email: ' ' })).toBeNull();
    expect(listenerName({})).toBeNull();
  });
});
