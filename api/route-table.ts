import type { RouteDef } from './route-def';
import { billingRoutes } from './routes/billing.routes';
import { catalogRoutes } from './routes/catalog.routes';
import { dataRoutes } from './routes/data.routes';
import { feedbackRoutes } from './routes/feedback.routes';
import { healthRoutes } from './routes/health.routes';
import { monitorRoutes } from './routes/monitors.routes';
import { projectRoutes } from './routes/projects.routes';
import { referenceRoutes } from './routes/reference.routes';
import { searchPassRoutes } from './routes/search-passes.routes';
import { searchRoutes } from './routes/searches.routes';
import { shortlistRoutes } from './routes/shortlist.routes';
import { usageRoutes } from './routes/usage.routes';
import { webhookRoutes } from './routes/webhooks.routes';

/** Every key-API route, in catalog order. Registers the router, feeds /actions and OpenAPI. */
export const routeTable: readonly RouteDef[] = [
  ...healthRoutes,
  ...catalogRoutes,
  ...projectRoutes,
  ...searchRoutes,
  ...searchPassRoutes,
  ...feedbackRoutes,
  ...monitorRoutes,
  ...shortlistRoutes,
  ...referenceRoutes,
  ...webhookRoutes,
  ...billingRoutes,
  ...usageRoutes,
  ...dataRoutes,
];
