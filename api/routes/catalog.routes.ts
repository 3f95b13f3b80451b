import { actionCatalog, openApiDocument } from '../catalog';
import { sendData } from '../respond';
import { z } from 'zod';
import { action } from '../../src/reference/reference.schemas';
import { defineRoute } from '../route-def';

export const catalogRoutes = [
  defineRoute({
    name: 'list_actions',
    method: 'GET',
    path: '/actions',
    auth: 'any',
    cost: 'free',
    costLine: 'Free: the catalog uses no credits.',
    summary: 'Every key-API operation with its scope, cost class and summary.',
    tag: 'Catalog',
    proposable: false,
    response: { kind: 'json', status: 200, data: z.array(action), total: true, description: 'The operations' },
    async handler(ctx, _input, _deps, routes) {
      const actions = actionCatalog(routes);
      sendData(ctx, actions, { total: actions.length });
    },
  }),
  defineRoute({
    name: 'get_openapi',
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    cost: 'free',
    costLine: 'Free.',
    summary: 'The OpenAPI 3.1 description of this API.',
    proposable: false,
    catalog: false,
    tag: 'Catalog',
    response: { kind: 'document', data: z.record(z.string(), z.unknown()), description: 'The OpenAPI 3.1 document (no envelope)' },
    async handler(ctx, _input, { config }, routes) {
      ctx.body = openApiDocument(routes, config);
    },
  }),
];
