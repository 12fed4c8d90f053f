import { join } from 'node:path';

/** One message the loopback SMTP server received, as stored on disk (one JSON file each). */
export interface StoredMail {
  /** Envelope recipients, lower-cased. */
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  /** Milliseconds since the epoch, when the message arrived. */
  receivedAt: number;
}

/** Where received messages go: inside the run's data folder, so they vanish with it. */
export function mailDirectory(dataDir: string): string {
  return join(dataDir, 'mail');
}
