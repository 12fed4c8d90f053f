import { z } from 'zod';

// The guest-uploads module's jobs as the code that enqueues them sees them. What each does is in
// job-handlers.ts.

/** Makes a guest file's renditions, waveform and loudness: the versions' processing, by id. */
export const processGuestFileJob = {
  name: 'media.process-guest-file',
  payload: z.object({ guestFileId: z.string().min(1) }),
};
