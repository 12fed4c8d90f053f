import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMAIL_UNVERIFIED_CODE, ERROR_CODES, errorBodySchema } from '@takes/contract';
import { Conflict, Forbidden, Gone, NotFound, RateLimited, Unauthenticated } from '../errors';
import { answerOf, codeOfStatus, HttpError, STATUS_OF } from './errors';
import { buildOpenApiDocument } from './openapi';

const SRC = path.resolve(import.meta.dirname, '..');
const DOMAIN_ERRORS =
  'AppError|Invalid|Unauthenticated|Forbidden|NotFound|Conflict|Gone|TooLarge|Unsupported|' +
  'RateLimited|UpstreamFailed|Unavailable|Internal|HttpError';
/** Constants a throw may name its code by, as the contract spells them. */
const NAMED_CODES: Record<string, string> = { EMAIL_UNVERIFIED_CODE };

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The text of a call from its opening parenthesis to the one that closes it. */
function callText(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/**
 * Every code server/src answers with: the kinds of domain error, the codes named where a domain
 * error is made (`new Forbidden(…, { code: '…' })`) and the codes of bodies made by hand
 * (`errorBody('…', …)`), each with where it was found.
 */
function codesInServer(): Map<string, string> {
  const found = new Map<string, string>();
  const errorsFile = fs.readFileSync(path.join(SRC, 'errors.ts'), 'utf8');
  const kinds = /export type AppErrorKind =([^;]+);/.exec(errorsFile)?.[1] ?? '';
  for (const [, kind] of kinds.matchAll(/'([a-z_]+)'/g)) found.set(kind!, 'errors.ts');
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    const where = path.relative(SRC, file);
    for (const [, code] of text.matchAll(/errorBody\(\s*'([a-z_]+)'/g)) found.set(code!, where);
    for (const made of text.matchAll(new RegExp(`new (?:${DOMAIN_ERRORS})\\(`, 'g'))) {
      const call = callText(text, made.index + made[0].length - 1);
      for (const [, literal, named] of call.matchAll(/\bcode:\s*(?:'([a-z_]+)'|([A-Z_]+)\b)/g)) {
        const code = literal ?? NAMED_CODES[named!] ?? named!;
        found.set(code, where);
      }
      // The base class takes a specific code as its fourth argument.
      for (const [, named] of call.matchAll(/,\s*([A-Z_]+_CODE)\s*,?\s*\)$/g))
        found.set(NAMED_CODES[named!] ?? named!, where);
    }
  }
  return found;
}

describe('error codes', () => {
  const listed = Object.keys(ERROR_CODES);

  it('lists in the contract every code the server answers with, and no other', () => {
    const found = codesInServer();
    const unlisted = [...found].filter(([code]) => !(code in ERROR_CODES));
    expect(unlisted, 'codes thrown in server/src but missing from ERROR_CODES').toEqual([]);
    const unused = listed.filter((code) => !found.has(code));
    expect(unused, 'codes in ERROR_CODES that server/src never answers with').toEqual([]);
  });

  it('gives each code its one-line meaning, and each kind the status the server answers', () => {
    for (const [code, { meaning }] of Object.entries(ERROR_CODES)) {
      expect(meaning.length, code).toBeGreaterThan(10);
      expect(meaning, code).not.toContain('\n');
    }
    for (const [kind, status] of Object.entries(STATUS_OF))
      expect(ERROR_CODES[kind as keyof typeof ERROR_CODES].status, kind).toBe(status);
    for (let status = 400; status < 600; status++)
      expect(listed, String(status)).toContain(codeOfStatus(status));
  });

  it('lists every code as an enum of the OpenAPI error body, which requires it', () => {
    const document = buildOpenApiDocument([], { publicUrl: 'http://localhost' }) as {
      components: {
        schemas: { ErrorBody: { required: string[]; properties: { code: { enum: string[] } } } };
      };
    };
    const body = document.components.schemas.ErrorBody;
    expect(body.properties.code.enum).toEqual(listed);
    expect(body.required).toEqual(expect.arrayContaining(['error', 'code']));
  });

  it('answers a specific code with its kind’s status, and the kind’s code by default', () => {
    expect(answerOf(new Unauthenticated('Locked', { code: 'link_password_required' }))).toEqual({
      status: 401,
      body: { error: 'Locked', code: 'link_password_required' },
    });
    expect(answerOf(new NotFound('Gone away', { details: { kind: 'x' } }))).toEqual({
      status: 404,
      body: { error: 'Gone away', code: 'not_found', details: { kind: 'x' } },
    });
    expect(answerOf(new RateLimited('Slow down', 5)).body.code).toBe('rate_limited');
    expect(new HttpError(416, 'Out of range').code).toBe('range_not_satisfiable');
    expect(new HttpError(422, 'Unprocessable').code).toBe('invalid');
    for (const error of [
      new Conflict('x', { code: 'stale_head' }),
      new Forbidden('x', { code: 'demo_not_allowed' }),
      new Gone('x', { code: 'link_expired' }),
    ])
      expect(errorBodySchema.parse(answerOf(error).body)).toEqual(answerOf(error).body);
  });

  it('refuses, when compiling, a specific code of another status than the kind’s', () => {
    // @ts-expect-error link_password_required is a 401, not a 410.
    const wrong = new Gone('x', { code: 'link_password_required' });
    expect(wrong.kind).toBe('gone');
  });
});
