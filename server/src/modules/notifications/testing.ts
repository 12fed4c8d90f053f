import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** For the notification email tests: a loopback SMTP server that keeps each mail raw. */

/** A mail the loopback SMTP server received, kept raw (headers intact). */
export interface RawMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps each message as it arrived. */
export async function startRawSmtp() {
  const messages: RawMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const parts: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => parts.push(chunk));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(parts).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to: string): Promise<void> {
      const deadline = Date.now() + 10_000;
      while (!messages.some((m) => m.to.includes(to))) {
        if (Date.now() > deadline) throw new Error(`no email to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Quoted-printable bytes (=XX) as UTF-8 text. */
const qp = (value: string) =>
  Buffer.from(
    value.replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** A header's value, unfolded, with RFC 2047 encoded words decoded. */
export function header(mail: RawMail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (!line) return undefined;
  return line
    .slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, body: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(body, 'base64').toString('utf8')
        : qp(body.replace(/_/g, ' ')),
    );
}

/** The text body, decoded (quoted-printable with soft line breaks, or plain). */
export function body(mail: RawMail): string {
  const [, ...rest] = mail.raw.split(/\r?\n\r?\n/);
  const text = rest.join('\n\n');
  return /quoted-printable/i.test(header(mail, 'Content-Transfer-Encoding') ?? '')
    ? qp(text.replace(/=\r?\n/g, ''))
    : text;
}

export const unsubscribeUrl = (mail: RawMail) => {
  const value = header(mail, 'List-Unsubscribe');
  const match = /<(https?:\/\/[^>]+)>/.exec(value ?? '');
  if (!match?.[1]) throw new Error('no List-Unsubscribe URL');
  return new URL(match[1]);
};
