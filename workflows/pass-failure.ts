import { ApplicationFailure, CancellationScope, ContinueAsNew, isCancellation } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { wakeWaiting, type SlotWaitInput } from './slots';

type PassRef = { searchId: string; pass: number };

/** The `failSearchPass` activity, proxied with the options of the workflow that calls it. */
export type FailPassActivity = Activities['failSearchPass'];

/** What an error says about why the pass failed: the activity's own refusal rather than Temporal's wrapper around it. */
export const failureMessage = (err: unknown): string => (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err));

/**
 * Records the pass as failed (stop reason `cancelled` or `error`), which gives its credit back
 * once: `failSearchPass` changes nothing for a pass already closed. Non-cancellable: a cancelled
 * pass must not stay "running" with its credit held. Answers the searches to wake.
 */
export async function recordPassFailure(
  ref: PassRef,
  err: unknown,
  failSearchPass: FailPassActivity,
  reasonOf: (err: unknown) => string = failureMessage,
): Promise<{ cancelled: boolean; reason: string; wake: string[] }> {
  const cancelled = isCancellation(err);
  const reason = cancelled ? 'cancelled' : reasonOf(err);
  const { wake } = await CancellationScope.nonCancellable(() => failSearchPass({ ...ref, reason, stopReason: cancelled ? 'cancelled' : 'error' }));
  return { cancelled, reason, wake };
}

/**
 * The `catch` of a pass that waits for a slot (a search pass, a database pass): lets a
 * ContinueAsNew through (the pass still waits, in a fresh run), records the failure, wakes the
 * passes waiting for the slot it may have held, and ends the workflow: cancelled as cancelled,
 * otherwise failed, not retried, with `<what> failed: <reason>`.
 */
export async function failPass(
  input: SlotWaitInput,
  err: unknown,
  how: {
    failSearchPass: FailPassActivity;
    /** `search pass`, `database pass`: how the workflow's failure names it. */
    what: string;
    /** The ApplicationFailure type the workflow fails with. */
    type: string;
    /** Runs once the failure is recorded, before the waiting passes are woken (the search pass's progress). */
    recorded?: () => void;
  },
): Promise<never> {
  if (err instanceof ContinueAsNew) throw err;
  const { cancelled, reason, wake } = await recordPassFailure({ searchId: input.searchId, pass: input.pass }, err, how.failSearchPass);
  how.recorded?.();
  await CancellationScope.nonCancellable(() => wakeWaiting(input, wake));
  if (cancelled) throw err;
  throw ApplicationFailure.nonRetryable(`${how.what} failed: ${reason}`, how.type);
}
