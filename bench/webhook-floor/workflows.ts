import { proxyLocalActivities } from '@temporalio/workflow';

/** The floor's whole workflow code: one local activity, nothing else (bench/webhook-floor/worker.ts). */
const { deliver } = proxyLocalActivities<{ deliver(n: number): Promise<void> }>({ startToCloseTimeout: '30 seconds' });

export async function floorDeliveryWorkflow(n: number): Promise<void> {
  await deliver(n);
}
