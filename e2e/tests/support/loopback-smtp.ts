import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { StoredMail } from './mail-store';

let sequence = 0;

function storeMail(directory: string, mail: StoredMail): void {
  const name = `${mail.receivedAt}-${process.pid}-${sequence++}`;
  // Write then rename, so a reader polling the folder never sees half a message.
  const temporary = join(directory, `${name}.tmp`);
  writeFileSync(temporary, JSON.stringify(mail, null, 2));
  renameSync(temporary, join(directory, `${name}.json`));
}

/**
 * A real SMTP server on loopback that accepts every message and stores it as a JSON file in
 * `directory`. The listening socket does not keep the test runner alive.
 */
export function startLoopbackSmtp(options: { port: number; directory: string }): SMTPServer {
  mkdirSync(options.directory, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase());
      simpleParser(stream)
        .then((parsed) => {
          storeMail(options.directory, {
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            receivedAt: Date.now(),
          });
          callback();
        })
        .catch((error: unknown) =>
          callback(error instanceof Error ? error : new Error(String(error))),
        );
    },
  });
  server.on('error', (error) => {
    console.error(`Loopback SMTP server on port ${options.port} failed:`, error);
    process.exit(1);
  });
  server.listen(options.port, '127.0.0.1');
  server.server.unref();
  return server;
}
