import { actionCatalog, openApiDocument } from '../catalog';
import { sendData } from '../respond';
import { defineRoutes } from '../route-def';

export const catalogRoutes = defineRoutes([
  {
    name: 'list_actions',
    method: 'GET',
    path: '/actions',
    auth: 'any',
    cost: 'free',
    costLine: 'Free: the catalog uses no credits.',
    summary: 'Every key-API operation with its scope, cost class and summary.',
    proposable: false,
    async handler(ctx, _deps, routes) {
      const actions = actionCatalog(routes);
      sendData(ctx, actions, { total: actions.length });
    },
  },
  {
    name: 'get_openapi',
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    cost: 'free',
    costLine: 'Free.',
    summary: 'The OpenAPI 3.1 description of this API.',
    proposable: false,
    catalog: false,
    async handler(ctx, { config }, routes) {
      ctx.body = openApiDocument(routes, config);
    },
  },
]);
