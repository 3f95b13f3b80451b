import { z } from 'zod';
import { monitorRepository } from '../../src/db/monitor.repository';
import type { Db } from '../../src/db/knex';
import { createMonitorBody, monitor, monitorDeleted, monitorParams, monitorsQuery, updateMonitorBody } from '../../src/monitors/monitors.schemas';
import { monitorResource } from '../../src/monitors/monitors.presenter';
import {
  createMonitor,
  deleteMonitor,
  findMonitorOr404,
  MAX_MONITORS_PER_WORKSPACE,
  updateMonitor,
  type MonitorDeps,
} from '../../src/monitors/monitors.service';
import { projectParams } from '../../src/projects/projects.schemas';
import { authOf, type ApiContext, type ApiDeps } from '../context';
import { loadProject } from '../resource-loaders';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

const loadMonitor = async (ctx: ApiContext, { db }: { db: Db }, params: { monitorId: string }) => ({
  monitor: await findMonitorOr404(db, authOf(ctx).workspace.id, params.monitorId),
});

const monitorDeps = (ctx: ApiContext, { db, temporal, config }: ApiDeps): MonitorDeps => ({
  db,
  temporal,
  everySeconds: config.monitorEverySeconds,
  warn: (err, message) => ctx.state.log.warn({ err }, message),
});

const RUN_COSTS = 'Each run of a database-only search is free; each run of a live search uses 1 shortlist credit (given back if the run fails).';

export const monitorRoutes = [
  defineRoute({
    name: 'create_monitor',
    method: 'POST',
    path: '/projects/{projectId}/monitors',
    auth: 'searches:write',
    cost: 'free',
    costLine: `Free to create. ${RUN_COSTS}`,
    summary: `Watch a search of the project: every hour, day or week a new pass over people the project has not seen; monitor.matched when it finds someone. One monitor per search, at most ${MAX_MONITORS_PER_WORKSPACE} per workspace.`,
    tag: 'Monitors',
    proposable: true,
    params: projectParams,
    load: loadProject,
    body: createMonitorBody,
    errors: ['search_not_found', 'search_not_finished', 'monitor_exists', 'monitor_limit_reached'],
    example: { search_id: '5f0c6d6e-3a4b-4c8d-9e1f-2a3b4c5d6e7f', every: 'day' },
    response: { kind: 'json', status: 201, data: monitor, description: 'The monitor, active; its first run is one period from now' },
    async handler(ctx, { body, found }, deps) {
      const created = await createMonitor(monitorDeps(ctx, deps), {
        workspaceId: authOf(ctx).workspace.id,
        projectId: found.project.id,
        searchId: body.search_id,
        every: body.every,
      });
      sendData(ctx, monitorResource(created, deps.config.monitorEverySeconds), { status: 201 });
    },
  }),
  defineRoute({
    name: 'list_monitors',
    method: 'GET',
    path: '/projects/{projectId}/monitors',
    auth: 'searches:read',
    cost: 'free',
    summary: "The project's monitors, oldest first (`search_id` narrows to one search's).",
    tag: 'Monitors',
    proposable: false,
    params: projectParams,
    load: loadProject,
    query: monitorsQuery,
    response: { kind: 'json', status: 200, data: z.array(monitor), total: true, description: 'The monitors' },
    async handler(ctx, { query, found }, { db, config }) {
      const monitors = await monitorRepository(db).listForProject(found.project.id, query.search_id);
      sendData(
        ctx,
        monitors.map((m) => monitorResource(m, config.monitorEverySeconds)),
        { total: monitors.length },
      );
    },
  }),
  defineRoute({
    name: 'get_monitor',
    method: 'GET',
    path: '/monitors/{monitorId}',
    auth: 'searches:read',
    cost: 'free',
    summary: 'One monitor: its status, next and last run, runs and new people found.',
    tag: 'Monitors',
    proposable: false,
    params: monitorParams,
    load: loadMonitor,
    response: { kind: 'json', status: 200, data: monitor, description: 'The monitor' },
    async handler(ctx, { found }, { config }) {
      sendData(ctx, monitorResource(found.monitor, config.monitorEverySeconds));
    },
  }),
  defineRoute({
    name: 'update_monitor',
    method: 'PATCH',
    path: '/monitors/{monitorId}',
    auth: 'searches:write',
    cost: 'free',
    costLine: `Free to change. ${RUN_COSTS}`,
    summary:
      'Pause (`status: paused`), resume (`status: active`, which clears paused_reason) or change the cadence (`every`: the next run is one new period from now). Safe to retry.',
    tag: 'Monitors',
    proposable: true,
    params: monitorParams,
    load: loadMonitor,
    body: updateMonitorBody,
    example: { status: 'paused' },
    response: { kind: 'json', status: 200, data: monitor, description: 'The monitor after the change' },
    async handler(ctx, { body, found }, deps) {
      const updated = await updateMonitor(monitorDeps(ctx, deps), found.monitor.id, body);
      sendData(ctx, monitorResource(updated, deps.config.monitorEverySeconds));
    },
  }),
  defineRoute({
    name: 'delete_monitor',
    method: 'DELETE',
    path: '/monitors/{monitorId}',
    auth: 'searches:write',
    cost: 'free',
    costLine: 'Free: deleting a monitor uses no credits.',
    summary: 'Delete a monitor and its schedule; a run already going finishes. The search and the people found stay.',
    tag: 'Monitors',
    proposable: true,
    params: monitorParams,
    load: loadMonitor,
    response: { kind: 'json', status: 200, data: monitorDeleted, description: 'The monitor is gone' },
    async handler(ctx, { found }, deps) {
      await deleteMonitor(monitorDeps(ctx, deps), found.monitor.id);
      sendData(ctx, { id: found.monitor.id, deleted: true });
    },
  }),
];
