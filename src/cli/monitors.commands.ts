import { InvalidArgumentError } from 'commander';
import { monitorRepository, MONITOR_STATUSES, type MonitorRow, type MonitorStatus } from '../db/monitor.repository';
import { AppError } from '../domain/errors';
import { monitorResource } from '../monitors/monitors.presenter';
import { updateMonitor } from '../monitors/monitors.service';
import { createTemporal } from '../temporal/client';
import { scheduleIds } from '../temporal/catalog';
import { findWorkspace } from './admin.commands';
import { UsageError, uuid } from './args';
import type { CliContext, RegisterCommands } from './command';

/** Monitors listed at most (oldest first). */
const LIST_LIMIT = 1000;

const statusOption = (value: string): MonitorStatus => {
  if (!(MONITOR_STATUSES as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${MONITOR_STATUSES.join(', ')}`);
  return value as MonitorStatus;
};

function line(ctx: CliContext, m: MonitorRow): string {
  const r = monitorResource(m, ctx.config.monitorEverySeconds);
  const state = r.status === 'paused' ? `paused (${r.paused_reason ?? 'manual'})` : `active, next ${r.next_run_at}`;
  return `${r.id}  workspace ${m.workspace_id}  search ${r.search_id}  every ${r.every}  ${state}  runs ${r.runs}  new people ${r.new_people_total}  last ${r.last_run_at ?? 'never'}  schedule ${scheduleIds.monitor(r.id)}`;
}

/** `monitors pause|resume`: the same change as update_monitor, on the monitor's Schedule too. */
async function setStatus(ctx: CliContext, id: string, status: MonitorStatus, json: boolean | undefined): Promise<void> {
  const found = await monitorRepository(ctx.db).find(id);
  if (!found) throw new UsageError(`no monitor ${id}`);
  const temporal = createTemporal(ctx.config);
  try {
    const updated = await updateMonitor(
      {
        db: ctx.db,
        temporal,
        everySeconds: ctx.config.monitorEverySeconds,
        warn: (err, message) => process.stderr.write(`warning: ${message} (${(err as Error).message})\n`),
      },
      id,
      { status },
    );
    if (json) return ctx.out(JSON.stringify({ ...monitorResource(updated, ctx.config.monitorEverySeconds), workspace_id: updated.workspace_id }));
    ctx.out(`${status === 'paused' ? 'Paused' : 'Resumed'} ${line(ctx, updated)}`);
  } catch (err) {
    if (err instanceof AppError && err.status === 503)
      throw new Error(`${err.message} (is Temporal at ${ctx.config.temporal.address} running?)`, { cause: err });
    throw err;
  } finally {
    await temporal.close();
  }
}

export const registerMonitorCommands: RegisterCommands = (program, host) => {
  const monitors = program.command('monitors').description('search monitors and their schedules');

  monitors
    .command('list')
    .description('monitors of every workspace (or one), oldest first, with status, next run and results')
    .option('--workspace <id>', 'only this workspace', uuid('workspace'))
    .option('--status <status>', `only ${MONITOR_STATUSES.join(' or ')} monitors`, statusOption)
    .option('--json', 'print one JSON object')
    .action(
      host.action<{ workspace?: string; status?: MonitorStatus; json?: boolean }>(async (ctx, opts) => {
        if (opts.workspace) await findWorkspace(ctx, opts.workspace);
        const rows = await monitorRepository(ctx.db).list({ workspaceId: opts.workspace, status: opts.status }, LIST_LIMIT);
        if (opts.json)
          return ctx.out(
            JSON.stringify({ monitors: rows.map((m) => ({ ...monitorResource(m, ctx.config.monitorEverySeconds), workspace_id: m.workspace_id })) }),
          );
        if (rows.length === 0) return ctx.out('no monitors');
        for (const m of rows) ctx.out(line(ctx, m));
      }),
    );

  for (const [name, status, description] of [
    ['pause', 'paused', 'pause a monitor (paused_reason manual) and its schedule'],
    ['resume', 'active', 'resume a paused monitor (clears paused_reason); its schedule runs again'],
  ] as const) {
    monitors
      .command(name)
      .description(description)
      .argument('<monitor-id>', 'monitor id', uuid('monitor id'))
      .option('--json', 'print one JSON object (the monitor after the change)')
      .action(host.action<{ json?: boolean }>((ctx, opts, [id]) => setStatus(ctx, id, status, opts.json)));
  }
};
