import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { AppError } from '../src/domain/errors';

/**
 * The API error a workflow's failure stands for, when an activity refused by our own rules: it
 * fails non-retryable with the AppError's code as its type and `{status, details}` as its details
 * (activities/search.activities.ts), found as the workflow's failure or that failure's cause.
 * Any other error is answered unchanged.
 */
export function workflowRefusal(err: unknown): unknown {
  const cause = err instanceof WorkflowFailedError ? (err.cause instanceof ApplicationFailure ? err.cause : err.cause?.cause) : undefined;
  if (cause instanceof ApplicationFailure && cause.type && cause.details?.[0]) {
    const { status, details } = cause.details[0] as { status: number; details: Record<string, unknown> | null };
    return new AppError(cause.type, status, cause.message, details);
  }
  return err;
}
