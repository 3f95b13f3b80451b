/**
 * Deterministic workflow ids (DESIGN.md §4): a repeated start of the same work is refused by
 * Temporal, and support staff can find a workflow from the ids they already have.
 * Pure module: imported by workflow code too; src/temporal/catalog.ts hands them out per workflow.
 */
export const workflowIds = {
  healthProbe: (probeId: string) => `health-probe-${probeId}`,
  searchPass: (searchId: string, pass: number) => `search-${searchId}-pass-${pass}`,
  expansion: (projectId: string, attempt: number) => `expansion-${projectId}-${attempt}`,
  rescore: (searchId: string, requestId: string) => `rescore-${searchId}-${requestId}`,
  webhookDelivery: (deliveryId: string) => `webhook-delivery-${deliveryId}`,
  webhookRedelivery: (deliveryId: string, n: number) => `webhook-delivery-${deliveryId}-redeliver-${n}`,
  topUp: (topUpId: string) => `topup-${topUpId}`,
  calibration: (searchId: string) => `calibration-${searchId}`,
};
