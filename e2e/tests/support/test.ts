import { createHash } from 'node:crypto';
import { test as base, type TestInfo } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * A client address of the test's own (10.x.y.z, stable for the test). Every e2e request comes
 * from 127.0.0.1, so without this the server's per-IP sign-in limits would count the whole suite
 * as one visitor. The e2e server runs with TRUST_PROXY so it reads `x-forwarded-for`.
 */
function clientAddressFor(testInfo: TestInfo): string {
  const digest = createHash('sha256')
    .update(`${testInfo.testId}:${testInfo.retry}:${testInfo.repeatEachIndex}`)
    .digest();
  return `10.${digest[0]}.${digest[1]}.${digest[2]}`;
}

export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': clientAddressFor(testInfo) });
  },
});
