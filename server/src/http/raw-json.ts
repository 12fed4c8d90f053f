import { randomBytes } from 'node:crypto';

/**
 * JSON text the server wrote itself and keeps as text (a feed card's stored waveform preview):
 * put into an answer as it is instead of being parsed and printed again. Parsing and printing
 * fifty previews of 200 numbers cost more than the rest of the feed's request.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * JSON.stringify that writes each RawJson's text in its place. A placeholder with a per-answer
 * random part stands in while the rest is printed, so no user text can be taken for one.
 */
export function stringifyWithRaw(value: unknown): string {
  const raw: string[] = [];
  const mark = `\u2063raw${randomBytes(8).toString('hex')}_`;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key, replaced) {
    const original = this[key];
    if (original instanceof RawJson) {
      raw.push(original.text);
      return `${mark}${raw.length - 1}`;
    }
    return replaced as unknown;
  });
  if (raw.length === 0) return text;
  return text.replace(
    new RegExp(`"${mark}(\\d+)"`, 'g'),
    (_, index: string) => raw[Number(index)] ?? 'null',
  );
}
