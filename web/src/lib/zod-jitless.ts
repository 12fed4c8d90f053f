/**
 * Imported first by each entry (main.tsx, share-main.tsx), before the contract's schemas exist.
 * zod 4 probes `new Function('')` once to decide whether to compile fast object parsers; under
 * our Content-Security-Policy (script-src 'self', no 'unsafe-eval') the probe fails anyway, but
 * Chromium reports it as a CSP violation (Lighthouse: best practices). zod reads its settings
 * from `globalThis.__zod_globalConfig` when it loads; `jitless` skips the probe, and parsing is
 * what it already was under the policy (no compiled parsers).
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {};
