import { z } from 'zod';

/** The one error body every API route answers with. */
export const errorBodySchema = z.object({
  error: z.string().describe('A message written for people.'),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Messages of errors any route may answer, whatever its module. */
export const ERROR_MESSAGES = {
  /** 503 while the object storage (the S3 server) cannot be reached. */
  storageUnavailable: 'Storage is unavailable, please try again',
} as const;
