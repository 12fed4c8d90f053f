import { CONTACT_MESSAGES, routes, type ContactBody } from '@takes/contract';
import { api, ApiError } from '../../lib/api';

export const CONTACT_SEND_FAILED = 'Your message could not be sent. Please try again.';

/** Stores the message on the server; resolves only once it is saved. */
export async function sendContactMessage(body: ContactBody): Promise<void> {
  try {
    await api.call(routes.site.sendContactMessage, {
      body,
      fallbackMessage: CONTACT_SEND_FAILED,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 429 && !error.serverMessage) {
      throw new ApiError(429, CONTACT_MESSAGES.tooMany, undefined);
    }
    throw error;
  }
}
