import { z } from 'zod';

export const componentStatusSchema = z.enum(['ok', 'error']);

export const healthCheckSchema = z.object({
  status: componentStatusSchema,
  detail: z.string().optional(),
});
export type HealthCheck = z.infer<typeof healthCheckSchema>;

export const healthResponseSchema = z.object({
  status: componentStatusSchema,
  checks: z.object({
    database: healthCheckSchema,
    storage: healthCheckSchema,
    ffmpeg: healthCheckSchema,
  }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
