/** Deterministic workflow ids (DESIGN.md §4): a repeated start of the same work is refused by Temporal. */
export const workflowIds = {
  healthProbe: (probeId: string) => `health-probe-${probeId}`,
};
