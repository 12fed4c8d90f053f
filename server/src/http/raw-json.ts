/**
 * JSON text the server wrote itself and keeps as text (a feed card's stored waveform preview):
 * put into an answer as it is instead of being parsed and printed again. Parsing and printing
 * fifty previews of 200 numbers cost more than the rest of the feed's request.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * JSON.stringify that writes each RawJson's text in its place: objects and arrays are walked
 * here (JSON.stringify's rules: toJSON, undefined and functions left out of objects and null in
 * arrays), everything else is printed by JSON.stringify. Twice as fast as JSON.stringify with a
 * replacer (a call back into JavaScript for every key) on a feed page, and no placeholder to
 * put back: no user text can be taken for one.
 */
export function stringifyWithRaw(value: unknown): string {
  return write(value, '', false) ?? 'null';
}

function write(value: unknown, key: string, inArray: boolean): string | undefined {
  if (value instanceof RawJson) return value.text;
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined && inArray ? 'null' : text;
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += write(value[i], String(i), true);
    }
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const name of Object.keys(value)) {
    const text = write((value as Record<string, unknown>)[name], name, false);
    if (text === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(name)}:${text}`;
    first = false;
  }
  return `${out}}`;
}
