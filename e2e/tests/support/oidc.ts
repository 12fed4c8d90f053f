import { startTestOidcProvider, type TestOidcProvider } from '../../../server/test/oidc-provider';

/** The e2e server's single sign-on: the provider's name on the button, and its client. */
export const E2E_OIDC = {
  name: 'Studio ID',
  clientId: 'takes-e2e',
  clientSecret: 'takes-e2e-client-secret-0123456789',
} as const;

/** Where the test OpenID provider listens: E2E_OIDC_PORT, or 500 above the app's port. */
export function oidcPort(appPort: number): number {
  return Number(process.env.E2E_OIDC_PORT ?? appPort + 500);
}

/**
 * The real OpenID provider the e2e server signs in with (started by the Playwright runner, so
 * tests in workers cannot add accounts): whoever signs in on its form as an email address is that
 * address, verified; as `unverified:<email>`, that address unverified.
 */
export function startE2eOidcProvider(appOrigin: string, port: number): Promise<TestOidcProvider> {
  return startTestOidcProvider({
    redirectUri: `${appOrigin}/api/auth/callback/oidc`,
    clientId: E2E_OIDC.clientId,
    clientSecret: E2E_OIDC.clientSecret,
    port,
    accountFor: (login) => {
      const unverified = login.startsWith('unverified:');
      const email = unverified ? login.slice('unverified:'.length) : login;
      return email.includes('@') ? { email, email_verified: !unverified } : undefined;
    },
  });
}
