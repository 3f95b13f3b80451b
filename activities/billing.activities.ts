import { ApplicationFailure } from '@temporalio/activity';
import { expireTopUp, grantTopUp } from '../src/billing/top-up.service';
import { AppError } from '../src/domain/errors';
import type { ActivityDeps } from './deps';

/** A missing top-up is final: retrying cannot make it appear. */
async function finalOnAppError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) throw ApplicationFailure.nonRetryable(err.message, err.code ?? 'AppError');
    throw err;
  }
}

export function billingActivities({ db, config }: ActivityDeps) {
  return {
    grantTopUpCredits: (topUpId: string) => finalOnAppError(() => grantTopUp(db, topUpId, config.publicBaseUrl)),
    expireTopUp: (topUpId: string) => finalOnAppError(() => expireTopUp(db, topUpId)),
  };
}
