import { APIError } from 'better-auth/api';
import type { AuthHooks } from './auth/auth';
import type { AppDeps } from './deps';
import { AppError } from './errors';
import { ACCOUNT_DISABLED_MESSAGE } from '@takes/contract';
import type { RateLimiter } from './auth/rate-limiter';
import { AdminRepo } from './modules/admin/admin.repo';
import { AdminService } from './modules/admin/admin.service';
import { AuthRepo } from './modules/auth/auth.repo';
import type { DesktopTokensService } from './modules/auth/desktop-tokens.service';
import { QuotasRepo, StorageQuotas } from './modules/quotas';
import { InviteLinkPass, SignupPolicy, SignupsRepo } from './modules/signups';
import { InstanceAdmins } from './modules/workspace/instance-admins';
import { WorkspaceRepo } from './modules/workspace/workspace.repo';

/**
 * Running an instance (issue 48), wired for createServices: who its admins are, who may make an
 * account (the sign-up policy), storage quotas and the admin page; with the hooks better-auth
 * calls before every new account and session. Made before the auth module, which takes the hooks.
 */
export function createInstanceServices(ctx: {
  deps: AppDeps;
  desktop: DesktopTokensService;
  limiter: RateLimiter;
}) {
  const { deps } = ctx;
  const db = deps.database.db;
  const admins = new InstanceAdmins({
    repo: new WorkspaceRepo(db),
    adminEmails: deps.config.adminEmails,
    env: deps.config.env,
  });
  const signups = new SignupPolicy({
    repo: new SignupsRepo(db),
    clock: deps.clock,
    signups: deps.config.signups,
    pass: new InviteLinkPass(deps.secretKey),
    https: deps.config.publicUrl.startsWith('https://'),
  });
  const quotas = new StorageQuotas({
    repo: new QuotasRepo(db),
    clock: deps.clock,
    storage: deps.storage,
    defaultQuotaBytes: deps.config.userStorageQuotaBytes,
  });
  // The admin page: disabling ends every sign-in at once, and no new one may start.
  const admin = new AdminService({
    repo: new AdminRepo(db),
    users: new AuthRepo(db),
    clock: deps.clock,
    events: deps.events,
    limiter: ctx.limiter,
    mailer: deps.mailer,
    publicUrl: deps.config.publicUrl,
    instanceQuotaBytes: deps.config.userStorageQuotaBytes,
    isAdminAccount: (user) => admins.isAdminAccount(user),
    revokeDesktopTokens: (userId) => ctx.desktop.revokeAllForUser(userId),
    signups,
    storage: quotas,
  });
  const authHooks: AuthHooks = {
    // A disabled account gets no session by any path (password, code, link, a provider).
    beforeSessionCreate: async (userId) => {
      if (await admin.isDisabled(userId))
        throw new APIError('FORBIDDEN', {
          message: ACCOUNT_DISABLED_MESSAGE,
          code: 'ACCOUNT_DISABLED',
        });
    },
    // A refusal in better-auth's own error type: anything else becomes its 422 "failed to create
    // user" (password sign-up) or a bare error code (a provider's return), losing the message.
    beforeUserCreate: async (user, headers) => {
      try {
        await signups.admit(user, headers);
      } catch (error) {
        if (error instanceof AppError && error.kind === 'forbidden')
          throw new APIError('FORBIDDEN', { message: error.message, code: 'SIGNUP_REFUSED' });
        throw error;
      }
    },
  };
  return { admins, signups, quotas, admin, authHooks };
}
