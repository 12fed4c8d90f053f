import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedQuery {
  expires: string;
  sig: string;
  name?: string | undefined;
}

/** Signs and checks the time-limited URLs under which the local store serves objects. */
export class UrlSigner {
  constructor(
    private readonly secret: string,
    private readonly basePath = '/api/storage/',
  ) {}

  sign(key: string, expiresAtSeconds: number, downloadName?: string): string {
    const params = new URLSearchParams({ expires: String(expiresAtSeconds) });
    if (downloadName) params.set('name', downloadName);
    params.set('sig', this.signature(key, String(expiresAtSeconds), downloadName));
    return `${this.basePath}${key}?${params.toString()}`;
  }

  /** True when the signature matches and has not expired at `nowSeconds`. */
  verify(key: string, query: SignedQuery, nowSeconds: number): boolean {
    const expires = Number(query.expires);
    if (!Number.isInteger(expires) || expires < nowSeconds) return false;
    const expected = Buffer.from(this.signature(key, query.expires, query.name), 'hex');
    const given = Buffer.from(query.sig, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private signature(key: string, expires: string, name: string | undefined): string {
    return createHmac('sha256', this.secret)
      .update(`${key}\n${expires}\n${name ?? ''}`)
      .digest('hex');
  }
}
