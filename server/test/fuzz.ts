import fc from 'fast-check';
import type { LightMyRequestResponse as InjectResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * What the fuzz tests share: arbitraries for bodies built from a route's JSON schema (as the
 * served OpenAPI document gives it), the ways of breaking them, hostile strings, and the one rule
 * every answer must keep (a 4xx with a JSON `{error}`, or a success).
 *
 * A failure prints fast-check's seed and path; FUZZ_SEED=<seed> runs the same cases again, and
 * FUZZ_SCALE=10 runs ten times as many cases.
 */

/**
 * fast-check parameters: `numRuns` (times FUZZ_SCALE, for a longer hunt by hand), the seed from
 * FUZZ_SEED when given, and no shrinking (each run is a real request; the seed reproduces it).
 */
export function fuzzParameters(numRuns: number): fc.Parameters<unknown> {
  const seed = process.env.FUZZ_SEED;
  const scale = Number(process.env.FUZZ_SCALE ?? 1);
  return {
    numRuns: Math.max(1, Math.round(numRuns * scale)),
    ...(seed ? { seed: Number(seed) } : {}),
    endOnFailure: true,
  };
}

/** The JSON schema subset our zod schemas produce in the OpenAPI document. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
}

/** Values that fit `schema` (mostly: patterns and formats are followed where fast-check can). */
export function fromSchema(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map(fromSchema));
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type) => fromSchema({ ...schema, type })));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'string':
      return stringFor(schema);
    case 'array':
      return fc.array(fromSchema(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = schema.required ?? [];
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, fromSchema(value)]),
      );
      return fc.record(record, {
        requiredKeys: required.filter((key) => key in properties),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, Math.max(min, 40));
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    // fast-check cannot generate from lookarounds: generate without them, keep what matches.
    const generated = new RegExp(schema.pattern.replace(/\(\?<?[=!][^)]*\)/g, ''));
    return fc
      .stringMatching(generated)
      .filter(
        (s) => pattern.test(s) && s.length >= min && s.length <= (schema.maxLength ?? Infinity),
      );
  }
  return fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
}

/** Strings people's tools and attackers send: odd Unicode, control bytes, SQL and paths. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202eevil\u202c',
  '\u200f\u200e\u061c',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  'e\u0301\u0301\u0301',
  '\ufeffbom',
  '\r\n\t',
  "' or 1=1 --",
  '"; DROP TABLE users; --',
  '../../etc/passwd',
  '%00',
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
  '\\',
];

/** An odd string: one of the list, random Unicode (lone surrogates included) or a long run. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) }),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => 'x'.repeat(n)),
);

/** Any JSON-ish value of the wrong kind for most fields. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, [], {}, [null], { a: 1 }),
  fc.double(),
  fc.bigInt().map((n) => n.toString()),
  fc.jsonValue({ maxDepth: 3 }),
);

const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** A body turned into JSON text (`__proto__` keys stay own properties: JSON.parse makes them). */
export type BodyText = string;

/**
 * A body for a route with this schema: a valid one, then (most of the time) broken: a field of
 * the wrong type, a required field dropped, fields added, an odd string in a string field, a
 * prototype-pollution key, or the whole body replaced by some other JSON value.
 */
export function brokenBody(schema: JsonSchema): fc.Arbitrary<BodyText> {
  const valid = fromSchema(schema);
  const keys = Object.keys(schema.properties ?? {});
  const mutation = fc.oneof(
    fc.constant<Mutation>({ kind: 'none' }),
    fc.record({ kind: fc.constant('wrongType' as const), value: wrongValue }),
    fc.constant<Mutation>({ kind: 'dropRequired' }),
    fc.record({
      kind: fc.constant('extra' as const),
      key: fc.oneof(oddString, fc.constantFrom(...POLLUTING_KEYS)),
      value: wrongValue,
    }),
    fc.record({ kind: fc.constant('oddString' as const), value: oddString }),
    fc.record({ kind: fc.constant('pollute' as const), key: fc.constantFrom(...POLLUTING_KEYS) }),
    fc.record({ kind: fc.constant('replace' as const), value: wrongValue }),
  );
  return fc
    .tuple(valid, mutation, fc.nat())
    .map(([body, m, pick]) => applyMutation(body, m, keys, schema.required ?? [], pick));
}

type Mutation =
  | { kind: 'none' }
  | { kind: 'wrongType'; value: unknown }
  | { kind: 'dropRequired' }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'oddString'; value: string }
  | { kind: 'pollute'; key: (typeof POLLUTING_KEYS)[number] }
  | { kind: 'replace'; value: unknown };

function applyMutation(
  body: unknown,
  m: Mutation,
  keys: string[],
  required: string[],
  pick: number,
): BodyText {
  const object: Record<string, unknown> =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? { ...(body as Record<string, unknown>) }
      : {};
  const someKey = keys.length > 0 ? keys[pick % keys.length] : undefined;
  switch (m.kind) {
    case 'none':
      return JSON.stringify(body);
    case 'wrongType':
      if (someKey === undefined) return JSON.stringify(m.value);
      object[someKey] = m.value;
      return JSON.stringify(object);
    case 'dropRequired': {
      const key = required[pick % Math.max(required.length, 1)];
      if (key !== undefined) delete object[key];
      return JSON.stringify(object);
    }
    case 'extra':
      return withKey(JSON.stringify(object), m.key, JSON.stringify(m.value) ?? 'null');
    case 'oddString':
      if (someKey === undefined) return JSON.stringify(m.value);
      object[someKey] = m.value;
      return JSON.stringify(object);
    case 'pollute': {
      const payload = JSON.stringify({ polluted: 'yes', prototype: { polluted: 'yes' } });
      if (someKey === undefined) return withKey(JSON.stringify(object), m.key, payload);
      delete object[someKey];
      // Both at the top and one level down, in a field the route reads.
      const inner = withKey('{}', m.key, payload);
      return withKey(withKey(JSON.stringify(object), someKey, inner), m.key, payload);
    }
    case 'replace':
      return JSON.stringify(m.value);
  }
}

/** The JSON object text `objectText` with `key: valueText` put first (any key, `__proto__` too). */
function withKey(objectText: string, key: string, valueText: string): BodyText {
  const rest = objectText.slice(1);
  return `{${JSON.stringify(key)}:${valueText}${rest === '}' ? '' : ','}${rest}`;
}

/**
 * Bodies no schema makes: not JSON, huge, deeply nested, the wrong encoding. `heavy`: costly to
 * send, and answered the same for every caller (parsing and validation come before access).
 */
export function fixedHostileBodies(
  schema: JsonSchema,
): { name: string; body: string | Buffer; heavy?: boolean }[] {
  const firstString =
    Object.entries(schema.properties ?? {}).find(([, s]) => s.type === 'string')?.[0] ?? 'name';
  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  return [
    { name: 'empty', body: '' },
    { name: 'not JSON', body: 'not json at all' },
    { name: 'cut short', body: '{"a":' },
    { name: 'null', body: 'null' },
    { name: 'a number', body: '42' },
    { name: 'a string', body: '"text"' },
    { name: 'an array', body: '[1,2,3]' },
    { name: 'invalid UTF-8', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
    { name: 'a NUL byte', body: Buffer.from('{"a":"\u0000"}\u0000') },
    { name: 'a byte-order mark', body: '\ufeff{}' },
    { name: 'nested 5,000 deep (arrays)', body: deep(5000) },
    { name: 'nested 200,000 deep (arrays)', body: deep(200_000), heavy: true },
    { name: 'nested 5,000 deep (objects)', body: deepObject(5000) },
    {
      name: 'a 1 MB string',
      body: JSON.stringify({ [firstString]: 'é'.repeat(512 * 1024) }),
      heavy: true,
    },
    {
      name: 'a 900 kB string',
      body: JSON.stringify({ [firstString]: 'x'.repeat(900_000) }),
      heavy: true,
    },
    { name: '__proto__ at the top', body: '{"__proto__":{"polluted":"yes"}}' },
    { name: 'constructor.prototype', body: '{"constructor":{"prototype":{"polluted":"yes"}}}' },
    { name: 'duplicate keys', body: `{"${firstString}":"a","${firstString}":{"x":1}}` },
  ];
}

/**
 * A response is either a success (2xx/3xx) or a 4xx whose body is JSON with an `error` string.
 * `allowed`: other statuses this route answers by design (still with `{error}`).
 */
export function expectSafeAnswer(
  response: InjectResponse,
  what: string,
  allowed: readonly number[] = [],
): void {
  const context = `${what} → ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, context).toBeGreaterThanOrEqual(200);
  if (!allowed.includes(response.statusCode))
    expect(response.statusCode, context).toBeLessThan(500);
  if (response.statusCode < 400) return;
  expect(String(response.headers['content-type']), context).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as { error?: unknown };
  expect(typeof body.error, context).toBe('string');
}

/** Rejects after `ms`: a request that never answers fails the test instead of hanging it. */
export async function withinTime<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether anything polluted the prototypes of this process's plain objects. */
export function prototypePollution(): string[] {
  const probe = {} as Record<string, unknown>;
  const found: string[] = [];
  for (const key of ['polluted', 'a', 'x', 'isAdmin'])
    if (probe[key] !== undefined) found.push(`({}).${key}`);
  const added = Object.getOwnPropertyNames(Object.prototype).filter(
    (name) => !BASE_OBJECT_KEYS.has(name),
  );
  return [...found, ...added.map((name) => `Object.prototype.${name}`)];
}

const BASE_OBJECT_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 30,
});
const huge = fc.oneof(
  fc.constantFrom('9007199254740993', '99999999999999999999999999', '1e3', '0x10', '-0'),
  fc.bigInt({ min: 2n ** 53n, max: 10n ** 40n }).map(String),
);

/** Range headers for an object of `size` bytes: valid, reversed, multi, huge or garbage. */
export function rangeHeader(size: number): fc.Arbitrary<string> {
  const offset = fc.integer({ min: 0, max: Math.max(size + 10, 0) });
  return fc.oneof(
    fc.tuple(offset, offset).map(([a, b]) => `bytes=${Math.min(a, b)}-${Math.max(a, b)}`),
    fc.tuple(offset, offset).map(([a, b]) => `bytes=${Math.max(a, b) + 1}-${Math.min(a, b)}`),
    offset.map((a) => `bytes=${a}-`),
    offset.map((n) => `bytes=-${n}`),
    fc
      .array(fc.tuple(offset, offset), { minLength: 2, maxLength: 4 })
      .map((pairs) => `bytes=${pairs.map(([a, b]) => `${a}-${b}`).join(',')}`),
    huge.map((n) => `bytes=${n}-`),
    huge.map((n) => `bytes=0-${n}`),
    huge.map((n) => `bytes=-${n}`),
    fc.constantFrom(
      'bytes=',
      'bytes=-',
      'bytes=--1',
      'bytes=0--1',
      'items=0-1',
      'bytes = 0-1',
      ' bytes=0-1 ',
      'BYTES=0-1',
      'bytes=0-0,-1',
      'bytes=,',
      'bytes=-0',
    ),
    printable,
    printable.map((s) => `bytes=${s}`),
  );
}
