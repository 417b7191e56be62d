import type { z } from 'zod';
import { HttpError } from './errors.ts';

/** zod's own wording, which needs the field name to mean anything on a screen. */
const GENERIC = /^(Invalid input|Invalid option|Too (big|small):)/;

/** The first issue as one sentence a screen can show; zod's generic messages get the field name. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  const path = issue.path.join('.');
  return path && GENERIC.test(issue.message) ? `${path}: ${issue.message}` : issue.message;
}

/** Parses input with a contract schema; bad input becomes a 400 VALIDATION_FAILED naming the field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) {
    const field = result.error.issues[0]?.path.join('.');
    throw new HttpError('VALIDATION_FAILED', describeIssue(result.error), field ? { field } : undefined);
  }
  return result.data;
}
