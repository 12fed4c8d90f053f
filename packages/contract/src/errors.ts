import { z } from 'zod';

/** The one error body every API route answers with. */
export const errorBodySchema = z.object({
  error: z.string().describe('A message written for people.'),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
