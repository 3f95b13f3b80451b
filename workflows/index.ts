// Every workflow the worker registers, under its export name. Deterministic code only (see DESIGN.md §1).
export { healthProbeWorkflow } from './health-probe.workflow';
// The search pass keeps the type name `searchWorkflow`: running passes and recorded histories
// (test/histories/) carry it, and a worker finds a workflow's code by that name.
export { searchPassWorkflow as searchWorkflow } from './search-pass.workflow';
export { expansionWorkflow } from './expansion.workflow';
export { databasePassWorkflow } from './database-pass.workflow';
export { rescoreWorkflow } from './rescore.workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery.workflow';
export { outboxSweepWorkflow } from './outbox-sweep.workflow';
export { strandedPassSweepWorkflow } from './stranded-pass-sweep.workflow';
export { topUpWorkflow } from './topup.workflow';
export { calibrationWorkflow } from './calibration.workflow';
export { monitorRunWorkflow } from './monitor-run.workflow';
