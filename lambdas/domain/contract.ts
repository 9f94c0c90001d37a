import type * as z from 'zod';
import { ValidationError } from './errors.js';

/** Field name → first message for that field, from a zod error. */
export function fieldMessages(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/**
 * Parses input with a contract or throws a ValidationError whose message is the form-level
 * message (from `summarize`, or the first field's message).
 */
export function parseContract<S extends z.ZodType>(
  schema: S,
  input: unknown,
  summarize?: (fields: Record<string, string>) => string,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = fieldMessages(result.error);
  const message = summarize?.(fields) ?? Object.values(fields)[0] ?? 'The request is not valid.';
  throw new ValidationError(message, fields);
}
