import type { BetterAuthPlugin } from 'better-auth';
import { createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { z } from 'zod';

export interface ProvenEmailSignInOptions {
  /**
   * Called when the proven owner takes over an account someone created without proving
   * the address, before anything else changes: whatever that someone signed in with
   * outside better-auth (desktop and CLI tokens) must end too.
   */
  onTakeover?: (userId: string) => Promise<void>;
}

/**
 * Server-only better-auth endpoint: sign in (creating the account on first sign-in) the
 * owner of an email address our magic-code service has already proven. Not reachable
 * over HTTP on its own: the routes call it after checking the code or link.
 */
export const provenEmailSignIn = (options: ProvenEmailSignInOptions = {}) =>
  ({
    id: 'takes-proven-email',
    endpoints: {
      signInProvenEmail: createAuthEndpoint.serverOnly(
        { method: 'POST', body: z.object({ email: z.string() }) },
        async (ctx) => {
          const email = ctx.body.email.toLowerCase();
          const internal = ctx.context.internalAdapter;
          const found = await internal.findUserByEmail(email, { includeAccounts: true });
          let user = found?.user;
          if (!user) {
            user = await internal.createUser(
              { email, name: '', emailVerified: true },
              { method: 'email-otp' },
            );
          } else if (!user.emailVerified) {
            // Whoever set a password on this unverified address did not prove they own it:
            // drop that password, those sessions and tokens before the real owner gets in.
            // Tokens first: should anything below fail, the next sign-in repeats it all.
            await options.onTakeover?.(user.id);
            for (const account of found?.accounts ?? []) {
              if (account.providerId === 'credential') await internal.deleteAccount(account.id);
            }
            await internal.deleteUserSessions(user.id);
            user = (await internal.updateUser(user.id, { emailVerified: true })) ?? user;
          }
          const session = await internal.createSession(user.id);
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ token: session.token, userId: user.id });
        },
      ),
    },
  }) satisfies BetterAuthPlugin;
