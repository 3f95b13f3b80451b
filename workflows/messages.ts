import { defineQuery, defineSignal } from '@temporalio/workflow';
import { TOPUP_PAID_SIGNAL } from '../src/billing/topup.contract';

export interface SearchProgress {
  search_id: string;
  pass: number;
  phase: 'waiting_for_slot' | 'running' | 'complete' | 'failed';
  pages: number;
  profiles_read: number;
  delivered: number;
  shortlisted: number;
}

/** Current progress of a search pass (also what `searches watch` shows). */
export const progressQuery = defineQuery<SearchProgress>('progress');
/** Sent by a finishing search so a waiting one re-checks for a free slot at once. */
export const slotFreedSignal = defineSignal('slotFreed');

/** A payment was recorded for the top-up (test checkout or Stripe webhook). */
export const topUpPaidSignal = defineSignal(TOPUP_PAID_SIGNAL);
