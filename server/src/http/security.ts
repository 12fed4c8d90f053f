import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers. The CSP allows only our own origin (plus blob:/data: where audio,
 * images and waveforms need them): the web app loads nothing from anywhere else.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }) {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Waveform and player libraries inject <style> into shadow roots.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'data:'],
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
}
