// Every workflow the worker registers. Deterministic code only (see DESIGN.md §1).
export { healthProbeWorkflow } from './health-probe.workflow';
export { searchWorkflow } from './search.workflow';
