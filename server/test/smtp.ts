import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  text: string;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** The newest message to this address, waiting for it to arrive. */
  waitFor(to: string, count?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const parts: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => parts.push(chunk));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          text: decodeQuotedPrintable(Buffer.concat(parts).toString('utf8')),
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
    async waitFor(to, count = 1) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const mine = messages.filter((m) => m.to.includes(to));
        if (mine.length >= count) return mine[mine.length - 1] as ReceivedMail;
        if (Date.now() > deadline) throw new Error(`no email to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function codeFrom(mail: ReceivedMail): string {
  const match = /Your sign-in code: (\d{6})/.exec(mail.text);
  if (!match?.[1]) throw new Error('no code in the email');
  return match[1];
}

/** The sign-in link: the page that asks 'Sign in as …?', its token in the fragment. */
export function linkFrom(mail: ReceivedMail): string {
  const match = /(https?:\/\/\S+\/magic-link#token=[\w-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error('no link in the email');
  return match[1];
}

/** The one-time token of the sign-in link. */
export function linkTokenFrom(mail: ReceivedMail): string {
  return new URL(linkFrom(mail)).hash.replace(/^#token=/, '');
}
