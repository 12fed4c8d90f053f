import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/support/chromium';
import { startLoopbackSmtp } from './tests/support/loopback-smtp';
import { mailDirectory } from './tests/support/mail-store';
import { E2E_OIDC, oidcPort, startE2eOidcProvider } from './tests/support/oidc';

const port = Number(process.env.E2E_PORT ?? 18181);
const origin = `http://127.0.0.1:${port}`;
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 18025);
// Single sign-on against a real OpenID provider (tests/support/oidc.ts); OIDC_ONLY stays off.
const oidcIssuer = `http://127.0.0.1:${oidcPort(port)}`;

// Playwright loads this file again in every worker; workers inherit the runner's environment, so
// only the runner makes the fresh data folder (and the SMTP server writing into it) and only the
// runner removes it when it exits.
if (!process.env.TAKES_E2E_DATA_DIR) {
  const dataDir = mkdtempSync(join(tmpdir(), 'takes-e2e-'));
  process.env.TAKES_E2E_DATA_DIR = dataDir;
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  // The server sends real email; tests read the sign-in codes from the stored messages.
  startLoopbackSmtp({ port: smtpPort, directory: mailDirectory(dataDir) });
  // Listening before the server starts, which reads the provider's discovery document.
  void startE2eOidcProvider(origin, oidcPort(port));
}
const dataDir = process.env.TAKES_E2E_DATA_DIR;

export default defineConfig({
  testDir: 'tests',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  reporter: 'list',
  use: {
    baseURL: origin,
    browserName: 'chromium',
    // System Chromium only: this project never downloads a browser.
    launchOptions: chromiumLaunchOptions({ playsAudio: true }),
  },
  projects: [
    { name: 'app', testIgnore: /instance-policy\.spec\.ts/ },
    // Closing sign-ups changes the whole instance: it runs once every other spec has finished.
    { name: 'instance-policy', testMatch: /instance-policy\.spec\.ts/, dependencies: ['app'] },
  ],
  webServer: {
    command: 'node ../server/dist/main.js serve',
    url: `${origin}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      // Each test presents its own client address (tests/support/test.ts) for the per-IP limits:
      // the browser and the test's request context connect from loopback, the one trusted proxy.
      TRUST_PROXY: '127.0.0.1',
      // The instance's admins (tests/support/admin.ts): specs sign in as them by emailed code.
      ADMIN_EMAILS:
        'debug-admin@example.com,axe-admin@example.com,people-admin@example.com,quota-admin@example.com,policy-admin@example.com,sweep-admin@example.com',
      SIGNUPS: 'open',
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      OIDC_ISSUER: oidcIssuer,
      OIDC_CLIENT_ID: E2E_OIDC.clientId,
      OIDC_CLIENT_SECRET: E2E_OIDC.clientSecret,
      OIDC_NAME: E2E_OIDC.name,
    },
  },
});
