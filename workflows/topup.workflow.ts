import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { TopUpOutcome, TopUpWorkflowInput } from '../src/billing/topup.contract';
import { topUpPaidSignal } from './messages';

const { grantTopUpCredits, expireTopUp } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  // A grant must happen even after a long outage: retry until it does (it is idempotent).
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * One top-up (`topup-<id>`): waits for the `paid` signal under a durable expiry timer, then grants
 * the credits exactly once through an activity, or expires. The database decides whether a
 * payment was recorded: a stray signal grants nothing, and a payment whose signal was lost is
 * found (and granted) when the timer fires.
 */
export async function topUpWorkflow(input: TopUpWorkflowInput): Promise<TopUpOutcome> {
  let signalled = false;
  setHandler(topUpPaidSignal, () => {
    signalled = true;
  });
  const deadline = Date.now() + input.expiresInMs;
  for (;;) {
    const remaining = deadline - Date.now();
    const paidInTime = remaining > 0 && (await condition(() => signalled, remaining));
    signalled = false;
    if (!paidInTime) {
      const { status } = await expireTopUp(input.topUpId);
      if (status !== 'paid') return 'expired';
    }
    const { status } = await grantTopUpCredits(input.topUpId);
    if (status === 'paid') return 'paid';
    if (status === 'expired') return 'expired';
    // `open`: a signal without a recorded payment; keep waiting for a real one.
  }
}
