import type { WorkspaceRepo } from './workspace.repo';

/**
 * Who owns this instance of Takes: the signed-in users whose verified email address is in
 * ADMIN_EMAILS. They alone see the debug page and the details of /api/health. Without
 * ADMIN_EMAILS nobody does, except in development, where any signed-in user may.
 */
export class InstanceAdmins {
  constructor(
    private readonly deps: {
      repo: WorkspaceRepo;
      adminEmails: readonly string[];
      env: 'development' | 'production' | 'test';
    },
  ) {}

  async includes(userId: string | undefined): Promise<boolean> {
    if (userId === undefined) return false;
    if (this.deps.adminEmails.length === 0) return this.deps.env === 'development';
    const user = await this.deps.repo.findUser(userId);
    return user !== undefined && this.isAdminAccount(user);
  }

  /** Whether an account (its address and whether it is proven) is one of the admins. */
  isAdminAccount(user: { email: string; email_verified: number | boolean }): boolean {
    if (this.deps.adminEmails.length === 0) return this.deps.env === 'development';
    if (!user.email_verified) return false;
    return this.deps.adminEmails.includes(user.email.trim().toLowerCase());
  }
}
