import nodemailer from 'nodemailer';
import type { JobLogger } from '../jobs/registry';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

export interface Mailer {
  readonly kind: 'smtp' | 'log';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Sends through an SMTP server given as a URL (smtp://user:pass@host:port). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: nodemailer.Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  close(): void {
    this.transport.close();
  }
}

/** The embedded default: every email is written to the server log instead of being sent. */
export class LogMailer implements Mailer {
  readonly kind = 'log' as const;

  constructor(
    private readonly logger: JobLogger,
    private readonly from: string,
  ) {}

  send(message: MailMessage): Promise<void> {
    this.logger.info(
      {
        mail: {
          from: this.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.headers ? { headers: message.headers } : {}),
        },
      },
      `email to ${message.to}: ${message.subject}`,
    );
    return Promise.resolve();
  }

  close(): void {}
}

export function createMailer(
  config: { smtpUrl: string | undefined; from: string },
  logger: JobLogger,
): Mailer {
  return config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.from)
    : new LogMailer(logger, config.from);
}
