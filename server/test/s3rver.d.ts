// s3rver ships no types; this covers the part the tests use.
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }
  /** What a Koa middleware of s3rver sees (the part the tests' additions use). */
  export interface S3rverContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    body: unknown;
    store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    middleware: ((ctx: S3rverContext, next: () => Promise<void>) => Promise<void> | void)[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
