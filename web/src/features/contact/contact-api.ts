import { CONTACT_MESSAGES, type ContactBody } from '@takes/contract';
import { ApiError, apiPost } from '../../lib/api';

export const CONTACT_SEND_FAILED = 'Your message could not be sent. Please try again.';

/** Stores the message on the server; resolves only once it is saved. */
export async function sendContactMessage(body: ContactBody): Promise<void> {
  try {
    await apiPost<{ id: string; message: string }>('/api/contact', body, {
      fallbackMessage: CONTACT_SEND_FAILED,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 429 && !error.serverMessage) {
      throw new ApiError(429, CONTACT_MESSAGES.tooMany, undefined);
    }
    throw error;
  }
}
