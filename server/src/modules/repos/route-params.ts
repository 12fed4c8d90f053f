import { errorBodySchema } from '@takes/contract';
import { z } from 'zod';

/** Error responses the repository routes declare (one error body for all). */
export const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  410: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  416: errorBodySchema,
};
export const id = z.string().min(1).max(64);
export const repoParams = z.object({ id });
