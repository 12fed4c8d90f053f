/** The part of a zod schema the forms use; the schemas themselves come from `@takes/contract`. */
interface FieldSchema<T> {
  safeParse(
    input: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
}

export type FieldCheck<T> = { ok: true; value: T } | { ok: false; error: string };

/** Runs one field's schema; the first issue's message is what the form shows. */
export function checkField<T>(schema: FieldSchema<T>, input: unknown): FieldCheck<T> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: result.error.issues[0]?.message ?? 'Invalid value' };
}
