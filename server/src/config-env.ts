import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '@takes/contract';
import { trustProxy } from './config-trust-proxy';

/**
 * Every environment variable the server reads, validated once at start-up.
 * The README's configuration table documents the same list; keep them in step.
 */

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'must be true or false',
  })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const port = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a whole number')
  .min(1, 'must be between 1 and 65535')
  .max(65535, 'must be between 1 and 65535');

const positiveInt = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be greater than 0');

const emailList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  )
  .refine(
    (emails) => emails.every((email) => /^[^\s@]+@[^\s@]+$/.test(email)),
    'must be a comma-separated list of email addresses',
  );

const SIZE = /^(\d+(?:\.\d+)?)\s*([kmgt]?b)?$/i;
const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
};

/** A number of bytes, or a size with a unit (binary, like the product's '500 MB'): 2.5GB, 800 MB. */
const byteSize = z
  .string()
  .trim()
  .regex(SIZE, 'must be a size such as 2.5GB or 800MB, or a number of bytes')
  .transform((value) => {
    const [, amount = '0', unit = 'b'] = SIZE.exec(value) ?? [];
    return Math.floor(Number(amount) * (SIZE_UNITS[unit.toLowerCase()] ?? 1));
  });

const databaseUrl = z
  .string()
  .trim()
  .refine(
    (value) => /^postgres(ql)?:\/\/.+/.test(value) || /^sqlite:.+/.test(value),
    'must be a postgres:// URL or sqlite:<file path>',
  );

const httpUrl = z
  .string()
  .trim()
  .refine((value) => /^https?:\/\/[^\s]+$/.test(value), 'must be an http:// or https:// URL');

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().trim().min(1).default('localhost'),
  PORT: port.default(8080),
  PUBLIC_URL: httpUrl.optional(),
  TRUST_PROXY: trustProxy.default(false),
  HTTP_HEADERS_TIMEOUT_SECONDS: positiveInt.default(30),
  HTTP_IDLE_TIMEOUT_SECONDS: positiveInt.default(60),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: positiveInt.default(72),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 (no limit) or more')
    .default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  DATABASE_URL: databaseUrl.optional(),
  DATABASE_PREPARED_STATEMENTS: booleanString.default(true),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  STORAGE_DIR: z.string().trim().min(1).optional(),
  S3_BUCKET: z.string().trim().min(3, 'must be a bucket name').optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ENDPOINT: httpUrl.optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanString.default(false),
  S3_PRESIGNED_REDIRECT: booleanString.default(false),
  JOB_QUEUE: z.enum(['embedded', 'pgboss']).default('embedded'),
  PGBOSS_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case PostgreSQL schema name')
    .default('pgboss'),
  JOB_CONCURRENCY: positiveInt.max(64, 'must be 64 or less').default(2),
  JOB_POLL_INTERVAL_MS: positiveInt.default(1000),
  JOB_LEASE_SECONDS: positiveInt.default(30),
  JOB_SHUTDOWN_GRACE_SECONDS: positiveInt.default(10),
  RUN_WORKER: booleanString.default(true),
  FFMPEG_PATH: z.string().trim().min(1).optional(),
  FFPROBE_PATH: z.string().trim().min(1).optional(),
  MEDIA_TIMEOUT_SECONDS: positiveInt.default(900),
  SMTP_URL: z
    .string()
    .trim()
    .refine((value) => /^smtps?:\/\/.+/.test(value), 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_TO_LOG: booleanString.default(false),
  ADMIN_EMAILS: emailList.optional(),
  MAIL_FROM: z.string().trim().min(3).default('Takes <no-reply@takes.localhost>'),
  WEB_DIST_DIR: z.string().trim().min(1).optional(),
  CLI_PACKAGE_FILE: z.string().trim().min(1).optional(),
  BLOG_DIR: z.string().trim().min(1).optional(),
  DESKTOP_RELEASES_FILE: z.string().trim().min(1).optional(),
  DESKTOP_DOWNLOAD_URL_MAC: httpUrl.optional(),
  DESKTOP_DOWNLOAD_URL_WIN: httpUrl.optional(),
  DESKTOP_DOWNLOAD_URL_LINUX: httpUrl.optional(),
  DESKTOP_VERSION: z.string().trim().min(1).max(50).optional(),
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  APPLE_CLIENT_ID: z.string().trim().min(1).optional(),
  APPLE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  APPLE_APP_BUNDLE_IDENTIFIER: z.string().trim().min(1).optional(),
  DESKTOP_SCHEME: z
    .string()
    .regex(/^[a-z][a-z0-9+.-]*$/, 'must be a URL scheme such as takes')
    .default('takes'),
  DEMO_ENABLED: booleanString.default(true),
  // Who may make an account; unset: open (production warns at start).
  SIGNUPS: z
    .enum(['open', 'invite-only', 'closed'], { error: 'must be open, invite-only or closed' })
    .optional(),
  ALLOWED_SIGNUP_DOMAINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
        .filter(Boolean),
    )
    .refine(
      (domains) => domains.every((domain) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)),
      'must be a comma-separated list of domains such as label.example',
    )
    .optional(),
  OIDC_ISSUER: httpUrl.optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OIDC_NAME: z.string().trim().min(1).max(60).optional(),
  OIDC_SCOPES: z.string().trim().min(1).optional(),
  OIDC_ONLY: booleanString.default(false),
  // Each person's originals and renditions together; unset: no quota.
  USER_STORAGE_QUOTA: byteSize
    .pipe(
      z
        .number()
        .min(1, 'must be more than 0 (leave it unset for no quota)')
        .max(Number.MAX_SAFE_INTEGER, 'is too large'),
    )
    .optional(),
  NOTIFICATION_BATCH_SECONDS: positiveInt.default(600),
  RESUMABLE_UPLOADS_MAX_OPEN: positiveInt.max(1000, 'must be 1000 or less').default(5),
  // At least one upload of the largest size must fit.
  RESUMABLE_UPLOADS_MAX_BYTES: byteSize
    .pipe(
      z
        .number()
        .min(MAX_UPLOAD_BYTES, 'must be at least 500MB (the largest single upload)')
        .max(Number.MAX_SAFE_INTEGER, 'is too large'),
    )
    .default(2.5 * 1024 ** 3),
});
