import { billingActivities } from './billing.activities';
import { calibrationActivities } from './calibration.activities';
import type { ActivityDeps } from './deps';
import { healthProbeActivities } from './health-probe.activities';
import { searchActivities } from './search.activities';
import { webhookActivities } from './webhook.activities';
import { monitorActivities } from './monitor.activities';
import { instrumentActivities } from './worker-metrics';

/** Every activity the worker registers, built from its dependencies; each attempt is counted. */
export function createActivities(deps: ActivityDeps) {
  return instrumentActivities(
    {
      ...healthProbeActivities(deps),
      ...searchActivities(deps),
      ...webhookActivities(deps),
      ...billingActivities(deps),
      ...calibrationActivities(deps),
      ...monitorActivities(deps),
    },
    deps.metrics,
  );
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps };
