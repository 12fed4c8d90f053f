import {
  COLLECTION_LINK_MESSAGES,
  COLLECTION_LINK_NAME_MAX,
  COLLECTION_LINK_RECIPIENTS_MAX,
  createCollectionLinkBodySchema,
} from '@takes/contract';

export const TOO_MANY_RECIPIENTS = `Add at most ${COLLECTION_LINK_RECIPIENTS_MAX} recipients at a time.`;

export function badEmailLine(line: number): string {
  return `Line ${line}: that email address does not look right.`;
}

/** The server's own rule for a recipient's address, so both sides refuse the same ones. */
const recipientEmail = createCollectionLinkBodySchema.shape.recipients.unwrap().element.shape.email;

export interface Recipient {
  name: string;
  email?: string;
}

export interface ParsedRecipients {
  /** The lines that read right, in order. */
  recipients: Recipient[];
  /** One message per line that does not, in the product's words ('Line 3: …'). */
  errors: string[];
  /** Lines with anything on them, right or not. */
  lines: number;
}

/**
 * Reads the recipients box: one recipient a line, as `Name <email>`, `Name, email` or just
 * `Name`; blank lines are skipped. Line numbers count every line, as the box shows them.
 */
export function parseRecipients(text: string): ParsedRecipients {
  const recipients: Recipient[] = [];
  const errors: string[] = [];
  let lines = 0;
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    lines += 1;
    const number = index + 1;
    let name: string;
    let email: string | null;
    const angled = /^(.*?)<([^<>]*)>$/.exec(line);
    if (angled) {
      // As mail programs write it: "Ana Silva" <ana@example.com>.
      name = (angled[1] ?? '')
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim();
      email = (angled[2] ?? '').trim();
    } else if (line.includes('<') || line.includes('>')) {
      errors.push(badEmailLine(number));
      return;
    } else if (line.includes(',')) {
      const comma = line.indexOf(',');
      name = line.slice(0, comma).trim();
      email = line.slice(comma + 1).trim() || null;
    } else if (/^[^\s@]+@\S+$/.test(line)) {
      // An address alone: the recipient still needs a name.
      name = '';
      email = line;
    } else {
      name = line;
      email = null;
    }
    if (!name) {
      errors.push(`Line ${number}: ${COLLECTION_LINK_MESSAGES.recipientNameRequired}`);
    } else if (name.length > COLLECTION_LINK_NAME_MAX) {
      errors.push(
        `Line ${number}: a recipient's name can be at most ${COLLECTION_LINK_NAME_MAX} characters.`,
      );
    } else if (email !== null && !recipientEmail.safeParse(email).success) {
      errors.push(badEmailLine(number));
    } else {
      recipients.push(email === null ? { name } : { name, email });
    }
  });
  if (recipients.length > COLLECTION_LINK_RECIPIENTS_MAX) errors.push(TOO_MANY_RECIPIENTS);
  return { recipients, errors, lines };
}
