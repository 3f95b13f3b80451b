import type { MonitorRow } from '../db/monitor.repository';
import { searchLinks } from '../events/links';
import { cadenceSeconds, nextRunAt } from './monitor-schedule';

/** The JSON the key API sends for monitors and in monitor.matched (shapes in monitors.schemas.ts). */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A monitor; `everySeconds` is MONITOR_EVERY_SECONDS (null: the cadence's own length). */
export function monitorResource(monitor: MonitorRow, everySeconds: number | null, now = Date.now()) {
  return {
    id: monitor.id,
    project_id: monitor.project_id,
    search_id: monitor.search_id,
    every: monitor.every,
    status: monitor.status,
    paused_reason: monitor.status === 'paused' ? monitor.paused_reason : null,
    next_run_at: iso(nextRunAt(monitor, cadenceSeconds(monitor.every, everySeconds), now)),
    last_run_at: iso(monitor.last_run_at),
    runs: monitor.runs,
    new_people_total: monitor.new_people_total,
    created_at: iso(monitor.created_at)!,
  };
}

export function monitorMatchedData(
  monitor: Pick<MonitorRow, 'id' | 'search_id' | 'project_id'>,
  run: { pass: number; newPeople: number; candidateIds: string[] },
  baseUrl: string,
) {
  return {
    monitor_id: monitor.id,
    search_id: monitor.search_id,
    project_id: monitor.project_id,
    pass: run.pass,
    new_people: run.newPeople,
    candidate_ids: run.candidateIds,
    links: {
      ...searchLinks(baseUrl, monitor.search_id, monitor.project_id),
      people: `${baseUrl}/searches/${monitor.search_id}/people`,
      monitor: `${baseUrl}/monitors/${monitor.id}`,
    },
  };
}
