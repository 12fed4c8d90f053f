/**
 * Text people wrote (names, titles, comments) as it goes into an email. Every Takes email is plain
 * text, so nothing needs escaping, but a mail program turns anything that looks like an address
 * into a link: a collection named "Urgent: sign in at https://evil.example" would arrive as a
 * clickable link under Takes' name. So user text is kept on one line (a header cannot hold a
 * line break; the body should not let it fake a paragraph), cut to a length, and whatever a
 * mail program would link — a scheme's `://`, a domain's dots, an address's `@` — is broken
 * with brackets, readable and never linked: `https[:]//evil[.]example`.
 */
export function mailText(value: string, maxLength = MAX_LENGTH): string {
  const line = value.replace(/[\s\u2028\u2029]+/g, ' ').trim();
  const cut = line.length > maxLength ? `${line.slice(0, maxLength - 1).trimEnd()}…` : line;
  return cut
    .replace(/([a-z][a-z0-9+.-]*):\/\//gi, '$1[:]//')
    .replace(/\b(?:[a-z0-9-]+\.)+[a-z]{2,63}\b/gi, (domain) => domain.replace(/\./g, '[.]'))
    .replace(/(?<=\S)@(?=\S)/g, '[@]');
}

/** Long enough for any name or title Takes accepts; a comment is cut here in an email. */
const MAX_LENGTH = 200;
