import type { ZodType } from 'zod';
import { AppError } from '../src/domain/errors';

export interface Problem {
  field: string;
  message: string;
}

/** Every problem zod found, as `field: message` pairs (the field path dotted). */
export function problemsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Problem[] {
  return issues.map((i) => ({ field: i.path.map(String).join('.') || '(body)', message: i.message }));
}

/** Validates input or throws 400 with `code`, listing every problem in the message and in details. */
export function parseWith<T>(schema: ZodType<T>, input: unknown, code = 'invalid_request'): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = problemsOf(result.error.issues);
  throw new AppError(code, 400, problems.map((p) => `${p.field}: ${p.message}`).join('; '), { problems });
}
