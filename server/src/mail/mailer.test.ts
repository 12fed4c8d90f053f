import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogMailer, SmtpMailer } from './mailer';

describe('mailer', () => {
  const received: { from: string; to: string[]; raw: string }[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const parts: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => parts.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(parts).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers through a real SMTP server', async () => {
    const mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'Takes <no-reply@takes.test>');
    await mailer.send({
      to: 'ana@example.com',
      subject: 'Your sign-in code',
      text: 'Code: 123456',
    });
    mailer.close();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'no-reply@takes.test', to: ['ana@example.com'] });
    expect(received[0]?.raw).toContain('Subject: Your sign-in code');
    expect(received[0]?.raw).toContain('Code: 123456');
  });

  it('sends extra headers (List-Unsubscribe) through SMTP and shows them in the log', async () => {
    const headers = {
      'List-Unsubscribe': '<https://takes.example/api/notifications/unsubscribe?token=t>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    };
    const mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'Takes <no-reply@takes.test>');
    await mailer.send({ to: 'cy@example.com', subject: 'News', text: 'Body', headers });
    mailer.close();
    const raw = (received.find((m) => m.to.includes('cy@example.com'))?.raw ?? '').replace(
      /\r?\n[ \t]+/g,
      ' ',
    );
    expect(raw).toContain(
      'List-Unsubscribe: <https://takes.example/api/notifications/unsubscribe?token=t>',
    );
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');

    const lines: object[] = [];
    const logger = { info: (obj: object) => lines.push(obj), warn: () => {}, error: () => {} };
    await new LogMailer(logger, 'Takes <x@y>').send({
      to: 'd@example.com',
      subject: 'S',
      text: 'T',
      headers,
    });
    expect(lines).toEqual([
      { mail: { from: 'Takes <x@y>', to: 'd@example.com', subject: 'S', text: 'T', headers } },
    ]);
  });

  it('writes the email to the log when no SMTP server is configured', async () => {
    const lines: { obj: object; msg?: string }[] = [];
    const logger = {
      info: (obj: object, msg?: string) => lines.push({ obj, msg }),
      warn: () => {},
      error: () => {},
    };
    await new LogMailer(logger, 'Takes <x@y>').send({
      to: 'b@example.com',
      subject: 'Hi',
      text: 'Body',
    });
    expect(lines).toEqual([
      {
        obj: { mail: { from: 'Takes <x@y>', to: 'b@example.com', subject: 'Hi', text: 'Body' } },
        msg: 'email to b@example.com: Hi',
      },
    ]);
  });
});
