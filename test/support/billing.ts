import fs from 'node:fs';
import type { Db } from '../../src/db/knex';
import { createLogger } from '../../src/logger';
import { startWorker, type WorkerHandle } from '../../activities/worker-process';
import type { TestStack } from './stack';
import { workflowBundlePath } from './stack';

/** The credits of the workspace bucket, summed from the ledger (what the API reports). */
export async function workspaceCredits(db: Db, workspaceId: string): Promise<number> {
  const [{ total }] = await db('credit_ledger').where({ workspace_id: workspaceId, bucket: 'workspace' }).sum({ total: 'delta' });
  return Number(total ?? 0);
}

export const topUpGrants = (db: Db, topUpId: string) => db('credit_ledger').where({ unique_key: `topup:${topUpId}` });
export const toppedUpEvents = (db: Db, topUpId: string) =>
  db('outbox_events').where({ type: 'billing.topped_up' }).whereRaw(`data->>'top_up_id' = ?`, [topUpId]);

/** The checkout token at the end of a test-provider url. */
export const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

/** POSTs the checkout page's form, as the "Pay (test mode)" button does. */
export const payCheckout = (stack: TestStack, token: string) =>
  fetch(`${stack.url}/checkout/${token}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } });

/** A worker on the stack's own task queue (for stacks started with `worker: false`). */
export function startStackWorker(stack: TestStack): Promise<WorkerHandle> {
  return startWorker({
    config: stack.config,
    db: stack.db,
    logger: createLogger('silent', 'test-worker'),
    workflowBundle: { code: fs.readFileSync(workflowBundlePath(), 'utf8') },
  });
}
