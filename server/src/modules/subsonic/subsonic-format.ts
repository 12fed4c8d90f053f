/**
 * Subsonic's answer, in JSON (`f=json`) or XML (the default): one `subsonic-response` with
 * `status`, the API version and OpenSubsonic's `type`, `serverVersion` and `openSubsonic`. In
 * XML a value's plain fields are attributes, its objects child elements and its arrays repeated
 * elements named after the field, as Subsonic's own schema has them.
 */
export const SUBSONIC_API_VERSION = '1.16.1';
export const SUBSONIC_XMLNS = 'http://subsonic.org/restapi';

export type SubsonicBody = Record<string, unknown>;

export function envelope(
  status: 'ok' | 'failed',
  body: SubsonicBody,
  serverVersion: string,
): SubsonicBody {
  return {
    status,
    version: SUBSONIC_API_VERSION,
    type: 'takes',
    serverVersion,
    openSubsonic: true,
    ...body,
  };
}

export function toJson(response: SubsonicBody): string {
  return JSON.stringify({ 'subsonic-response': response });
}

export function toXml(response: SubsonicBody): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element('subsonic-response', response, SUBSONIC_XMLNS)}`;
}

const isPlain = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function element(name: string, value: unknown, xmlns?: string): string {
  if (isPlain(value)) return `<${name}>${escapeXml(String(value))}</${name}>`;
  const attributes: string[] = xmlns ? [`xmlns="${xmlns}"`] : [];
  const children: string[] = [];
  for (const [key, field] of Object.entries(value as SubsonicBody)) {
    if (field === undefined || field === null) continue;
    if (isPlain(field)) attributes.push(`${key}="${escapeXml(String(field))}"`);
    else if (Array.isArray(field)) for (const item of field) children.push(element(key, item));
    else children.push(element(key, field));
  }
  const open = [name, ...attributes].join(' ');
  return children.length ? `<${open}>${children.join('')}</${name}>` : `<${open}/>`;
}

/** Text safe in an attribute or an element (characters XML 1.0 cannot hold are dropped). */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- the characters XML 1.0 allows, named by code
      .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}
