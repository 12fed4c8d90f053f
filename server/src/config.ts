import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TrustProxy } from './config-trust-proxy';
import { envSchema } from './config-env';

/**
 * The server's configuration, read from the environment once at start-up (the variables and how
 * each is read are in config-env.ts).
 */
export type RawEnv = Record<string, string | undefined>;

/** Fastify's `trustProxy`: none, a hop count, or the addresses/CIDRs of the trusted proxies. */
export type { TrustProxy };

export type DatabaseConfig =
  | { dialect: 'sqlite'; file: string }
  | {
      dialect: 'postgres';
      url: string;
      /** Named prepared statements per connection (off behind a transaction-mode pooler). */
      preparedStatements?: boolean;
    };

export type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
      /** Audio, downloads and covers answer with a 302 to a 60-second presigned URL. */
      presignedRedirect: boolean;
    };

export type SignupPolicy = 'open' | 'invite-only' | 'closed';

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's name (OIDC_NAME): the button says 'Sign in with Authentik'. */
  name: string;
  scopes: string[];
  /** OIDC_ONLY: the sign-in page offers this provider alone. */
  only: boolean;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  trustProxy: TrustProxy;
  /** Verified email addresses of the instance's owners (the debug page); empty: nobody. */
  adminEmails: string[];
  /** How long the HTTP server waits for a client (milliseconds); see buildApp. */
  http: {
    headersTimeoutMs: number;
    idleTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** 0: no limit on a whole request's arrival (the idle timeout still applies). */
    requestTimeoutMs: number;
  };
  logLevel: string;
  dataDir: string;
  secretKey: string | undefined;
  database: DatabaseConfig;
  storage: StorageConfig;
  jobs: {
    queue: 'embedded' | 'pgboss';
    pgbossSchema: string;
    concurrency: number;
    pollIntervalMs: number;
    leaseSeconds: number;
    /** At SIGTERM, running jobs get this long to finish before they are handed back. */
    shutdownGraceSeconds: number;
    runInServe: boolean;
  };
  media: { ffmpegPath: string | undefined; ffprobePath: string | undefined; timeoutMs: number };
  mail: { smtpUrl: string | undefined; from: string; toLog: boolean };
  webDistDir: string;
  /** The takes CLI as one npm package (cli/build.mjs), offered at /downloads/takes-cli.tgz. */
  cliPackageFile: string;
  blogDir: string;
  desktopDownloads: {
    /** A JSON file { mac?: {url, version?}, win?: …, linux?: … }, read on each request. */
    releasesFile: string | undefined;
    urls: { mac?: string | undefined; win?: string | undefined; linux?: string | undefined };
    version: string | undefined;
  };
  oauth: {
    google: { clientId: string; clientSecret: string } | undefined;
    apple:
      | { clientId: string; clientSecret: string; appBundleIdentifier: string | undefined }
      | undefined;
  };
  desktopScheme: string;
  /**
   * Who may make an account (SIGNUPS; an admin's stored choice overrides it) and the email
   * domains invite-only lets in (ALLOWED_SIGNUP_DOMAINS, lower case, no '@').
   */
  signups: {
    policy: SignupPolicy;
    /** Whether SIGNUPS was set (production warns at start when it was not). */
    chosen: boolean;
    allowedDomains: string[];
  };
  /** Single sign-on with an OpenID Connect provider (OIDC_*), or undefined. */
  oidc: OidcConfig | undefined;
  /** USER_STORAGE_QUOTA in bytes: what one person's originals and renditions may take; null: none. */
  userStorageQuotaBytes: number | null;
  /** 'Try demo' makes a short-lived account of its own (DEMO_ENABLED). */
  demoEnabled: boolean;
  /** NOTIFICATION_BATCH_SECONDS: a recipient's notification emails within one window become one. */
  notificationBatchSeconds: number;
  /** What one person's unfinished resumable uploads may hold at once (the tus creation checks it). */
  resumableUploads: {
    /** RESUMABLE_UPLOADS_MAX_OPEN: unfinished uploads at once. */
    maxOpen: number;
    /** RESUMABLE_UPLOADS_MAX_BYTES: their declared lengths (Upload-Length) together. */
    maxBytes: number;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const serverDir = path.dirname(fileURLToPath(import.meta.url));
// Both server/src/config.ts and the bundled server/dist/main.js sit one level below server/.
const defaultWebDist = path.resolve(serverDir, '..', '..', 'web', 'dist');
const defaultBlogDir = path.resolve(serverDir, '..', '..', 'content', 'blog');
const defaultCliPackage = path.resolve(serverDir, '..', '..', 'cli', 'dist', 'takes-cli.tgz');

/** Reads and validates the environment. Throws ConfigError with one line naming the variable. */
export function loadConfig(rawEnv: RawEnv): Config {
  const result = envSchema.safeParse(blankToUndefined(rawEnv));
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = issue?.path.join('.') ?? 'environment';
    const got = typeof issue?.path[0] === 'string' ? rawEnv[issue.path[0]] : undefined;
    const shown = got === undefined ? '' : ` (got ${JSON.stringify(got)})`;
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${shown}`,
    );
  }
  const env = result.data;
  const dataDir = path.resolve(env.DATA_DIR);

  const database: DatabaseConfig = env.DATABASE_URL?.startsWith('postgres')
    ? {
        dialect: 'postgres',
        url: env.DATABASE_URL,
        preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
      }
    : {
        dialect: 'sqlite',
        file: env.DATABASE_URL
          ? path.resolve(env.DATABASE_URL.slice('sqlite:'.length))
          : path.join(dataDir, 'takes.sqlite'),
      };

  let storage: StorageConfig;
  if (env.STORAGE_DRIVER === 's3') {
    if (!env.S3_BUCKET) {
      throw new ConfigError('Invalid configuration: S3_BUCKET is required when STORAGE_DRIVER=s3');
    }
    storage = {
      driver: 's3',
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      presignedRedirect: env.S3_PRESIGNED_REDIRECT,
    };
  } else {
    storage = {
      driver: 'local',
      dir: path.resolve(env.STORAGE_DIR ?? path.join(dataDir, 'objects')),
    };
  }

  if (
    env.HTTP_REQUEST_TIMEOUT_SECONDS > 0 &&
    env.HTTP_REQUEST_TIMEOUT_SECONDS < env.HTTP_HEADERS_TIMEOUT_SECONDS
  ) {
    throw new ConfigError(
      'Invalid configuration: HTTP_REQUEST_TIMEOUT_SECONDS must be 0 or at least HTTP_HEADERS_TIMEOUT_SECONDS',
    );
  }
  if (env.JOB_QUEUE === 'pgboss' && database.dialect !== 'postgres') {
    throw new ConfigError(
      'Invalid configuration: JOB_QUEUE=pgboss needs DATABASE_URL to be a postgres:// URL',
    );
  }

  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    trustProxy: env.TRUST_PROXY,
    adminEmails: env.ADMIN_EMAILS ?? [],
    http: {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      idleTimeoutMs: env.HTTP_IDLE_TIMEOUT_SECONDS * 1000,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
    },
    logLevel: env.LOG_LEVEL,
    dataDir,
    secretKey: env.SECRET_KEY,
    database,
    storage,
    jobs: {
      queue: env.JOB_QUEUE,
      pgbossSchema: env.PGBOSS_SCHEMA,
      concurrency: env.JOB_CONCURRENCY,
      pollIntervalMs: env.JOB_POLL_INTERVAL_MS,
      leaseSeconds: env.JOB_LEASE_SECONDS,
      shutdownGraceSeconds: env.JOB_SHUTDOWN_GRACE_SECONDS,
      runInServe: env.RUN_WORKER,
    },
    media: {
      ffmpegPath: env.FFMPEG_PATH,
      ffprobePath: env.FFPROBE_PATH,
      timeoutMs: env.MEDIA_TIMEOUT_SECONDS * 1000,
    },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, toLog: env.MAIL_TO_LOG },
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? defaultWebDist),
    cliPackageFile: path.resolve(env.CLI_PACKAGE_FILE ?? defaultCliPackage),
    blogDir: path.resolve(env.BLOG_DIR ?? defaultBlogDir),
    desktopDownloads: {
      releasesFile: env.DESKTOP_RELEASES_FILE ? path.resolve(env.DESKTOP_RELEASES_FILE) : undefined,
      urls: {
        mac: env.DESKTOP_DOWNLOAD_URL_MAC,
        win: env.DESKTOP_DOWNLOAD_URL_WIN,
        linux: env.DESKTOP_DOWNLOAD_URL_LINUX,
      },
      version: env.DESKTOP_VERSION,
    },
    oauth: {
      google: pair('GOOGLE', env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET),
      apple: withBundle(
        pair('APPLE', env.APPLE_CLIENT_ID, env.APPLE_CLIENT_SECRET),
        env.APPLE_APP_BUNDLE_IDENTIFIER,
      ),
    },
    signups: {
      policy: env.SIGNUPS ?? 'open',
      chosen: env.SIGNUPS !== undefined,
      allowedDomains: env.ALLOWED_SIGNUP_DOMAINS ?? [],
    },
    oidc: oidcConfig(env),
    userStorageQuotaBytes: env.USER_STORAGE_QUOTA ?? null,
    desktopScheme: env.DESKTOP_SCHEME,
    // OIDC_ONLY: people come in through single sign-on alone, so no demo accounts either.
    demoEnabled: env.DEMO_ENABLED && !env.OIDC_ONLY,
    notificationBatchSeconds: env.NOTIFICATION_BATCH_SECONDS,
    resumableUploads: {
      maxOpen: env.RESUMABLE_UPLOADS_MAX_OPEN,
      maxBytes: env.RESUMABLE_UPLOADS_MAX_BYTES,
    },
  };
}

/**
 * Why this configuration must not serve or work in production, or undefined. Without SMTP every
 * email (sign-in codes and links included) goes to the log, which is fine on a developer's machine
 * but leaves live credentials in log files; production asks for it explicitly.
 */
export function productionMailProblem(config: Config): string | undefined {
  if (config.env !== 'production' || config.mail.smtpUrl || config.mail.toLog) return undefined;
  return (
    'Invalid configuration: SMTP_URL is required when NODE_ENV=production ' +
    '(or set MAIL_TO_LOG=true to write emails, sign-in codes included, to the log)'
  );
}

/** OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or single sign-on is off. */
function oidcConfig(env: ReturnType<typeof envSchema.parse>): OidcConfig | undefined {
  const set = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].filter(Boolean).length;
  if (set === 0) {
    if (env.OIDC_ONLY) {
      throw new ConfigError('Invalid configuration: OIDC_ONLY=true needs OIDC_ISSUER to be set');
    }
    return undefined;
  }
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) {
    throw new ConfigError(
      'Invalid configuration: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together',
    );
  }
  return {
    issuer: env.OIDC_ISSUER.replace(/\/+$/, ''),
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    name: env.OIDC_NAME ?? 'single sign-on',
    scopes: (env.OIDC_SCOPES ?? 'openid email profile').split(/[\s,]+/).filter(Boolean),
    only: env.OIDC_ONLY,
  };
}

/** A provider is configured with both its id and secret, or not at all. */
function pair(prefix: string, clientId: string | undefined, clientSecret: string | undefined) {
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) {
    throw new ConfigError(
      `Invalid configuration: ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`,
    );
  }
  return { clientId, clientSecret };
}

function withBundle(
  provider: { clientId: string; clientSecret: string } | undefined,
  appBundleIdentifier: string | undefined,
) {
  return provider ? { ...provider, appBundleIdentifier } : undefined;
}

// An empty variable (`FOO=` in a .env file) means "not set", so defaults apply.
function blankToUndefined(rawEnv: RawEnv): RawEnv {
  const out: RawEnv = {};
  for (const [key, value] of Object.entries(rawEnv)) {
    out[key] = value === '' ? undefined : value;
  }
  return out;
}
