import { billingActivities } from './billing.activities';
import type { ActivityDeps } from './deps';
import { healthProbeActivities } from './health-probe.activities';
import { searchActivities } from './search.activities';
import { webhookActivities } from './webhook.activities';

/** Every activity the worker registers, built from its dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...healthProbeActivities(deps),
    ...searchActivities(deps),
    ...webhookActivities(deps),
    ...billingActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps };
