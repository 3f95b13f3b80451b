import { Context } from '@temporalio/activity';
import type { MonitorRunOutcome, MonitorRunRef, MonitorRunStart } from '../src/monitors/monitor-run.contract';
import { beginMonitorRun, finishMonitorRun } from '../src/monitors/monitor-run.service';
import { deleteMonitorSchedule, pauseMonitorSchedule } from '../src/monitors/monitor-schedule';
import type { ActivityDeps } from './deps';

export function monitorActivities({ db, config }: ActivityDeps) {
  return {
    /**
     * A run's first step (monitor-run.service.ts); then, for a monitor found paused or deleted,
     * the Schedule is paused or deleted too (after the commit: a retry answers the same).
     */
    async beginMonitorRun(ref: MonitorRunRef): Promise<MonitorRunStart> {
      const { start, schedule } = await beginMonitorRun(db, config, ref);
      const { client } = Context.current();
      const reason = start.run === null ? start.outcome.reason : null;
      if (schedule === 'pause') await pauseMonitorSchedule(client, ref.monitorId, `paused: ${reason ?? 'manual'}`);
      if (schedule === 'delete') await deleteMonitorSchedule(client, ref.monitorId);
      return start;
    },
    finishMonitorRun: (ref: MonitorRunRef): Promise<MonitorRunOutcome> => finishMonitorRun(db, ref, config.publicBaseUrl),
  };
}
