import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { ObjectStore } from '../storage/object-store';

/**
 * The origin presigned URLs point at (the bucket's, virtual-hosted or path-style as the client
 * is set up), read from a URL the store signs, so it is exactly where browsers will be sent.
 */
export async function presignedOrigin(store: ObjectStore): Promise<string | undefined> {
  if (!store.presignedRedirect) return undefined;
  return new URL(await store.signedUrl('csp-origin', { expiresInSeconds: 60 })).origin;
}

/**
 * Security headers. The CSP allows only our own origin (plus blob:/data: where audio,
 * images and waveforms need them): the web app loads nothing from anywhere else. With
 * S3_PRESIGNED_REDIRECT, audio and covers come from the bucket: its origin (`storageOrigin`) is
 * allowed for media and images, and for nothing else.
 *
 * helmet works out the headers once, here; every answer then gets that same set. (@fastify/helmet
 * built helmet's middleware again for every request, parsing the CSP directives each time: a
 * visible share of a cheap request such as an audio Range request.)
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { https: boolean; storageOrigin?: string | undefined },
) {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  return Promise.resolve();
}

/** The headers helmet sets with Takes' configuration. */
export function securityHeaders(options: {
  https: boolean;
  storageOrigin?: string | undefined;
}): Record<string, string> {
  const bucket = options.storageOrigin ? [options.storageOrigin] : [];
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Waveform and player libraries inject <style> into shadow roots.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...bucket],
        mediaSrc: ["'self'", 'blob:', 'data:', ...bucket],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: options.https ? [] : null,
      },
    },
    // Full referrer inside Takes, nothing to other sites (share URLs hold secrets).
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: options.https,
    crossOriginEmbedderPolicy: false,
  });
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader() {},
  };
  let error: unknown;
  middleware(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (e?: unknown) => (error = e),
  );
  if (error)
    throw error instanceof Error
      ? error
      : new Error('helmet could not work out the security headers');
  return headers;
}
