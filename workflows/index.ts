// Every workflow the worker registers. Deterministic code only (see DESIGN.md §1).
export { healthProbeWorkflow } from './health-probe.workflow';
export { searchWorkflow } from './search.workflow';
export { expansionWorkflow, databasePassWorkflow, rescoreWorkflow } from './search-passes.workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery.workflow';
export { outboxSweepWorkflow } from './outbox-sweep.workflow';
export { strandedPassSweepWorkflow } from './stranded-pass-sweep.workflow';
export { topUpWorkflow } from './topup.workflow';
