import type { RouteDef } from './route-def';
import { healthRoutes } from './routes/health.routes';

/** Every key-API route, in catalog order. */
export const routeTable: RouteDef[] = [...healthRoutes];
