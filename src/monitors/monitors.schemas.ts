import { z } from 'zod';
import { MONITOR_CADENCES, MONITOR_STATUSES, PAUSED_REASONS } from '../db/monitor.repository';
import { searchLinks } from '../searches/searches.schemas';

const datetime = z.iso.datetime();
const every = z.enum(MONITOR_CADENCES, { error: `every must be one of ${MONITOR_CADENCES.join(', ')}` }).describe('How often the search runs again');

export const monitorParams = z.object({ monitorId: z.uuid().describe('Monitor id') });

export const monitorsQuery = z.strictObject({ search_id: z.uuid().optional().describe("Only this search's monitor") });

export const createMonitorBody = z
  .strictObject({ search_id: z.uuid().describe('A search of the project'), every })
  .meta({ id: 'CreateMonitor', description: 'The search to watch and how often' });

export const updateMonitorBody = z
  .strictObject({
    status: z.enum(MONITOR_STATUSES).optional().describe('`paused` stops the runs, `active` resumes them'),
    every: every.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'send at least one of status, every')
  .meta({ id: 'UpdateMonitor', description: 'Pause, resume or change the cadence: at least one of status, every', minProperties: 1 });

export const monitor = z
  .strictObject({
    id: z.uuid(),
    project_id: z.uuid(),
    search_id: z.uuid(),
    every: z.enum(MONITOR_CADENCES),
    status: z.enum(MONITOR_STATUSES),
    paused_reason: z
      .enum(PAUSED_REASONS)
      .nullable()
      .describe('Why it is paused: manual, or it paused itself (no_credit, no_active_plan, provider_unavailable before a live run; search_failed)'),
    next_run_at: datetime.nullable().describe('When the next run starts; null while paused'),
    last_run_at: datetime.nullable().describe('When the latest run finished'),
    runs: z.int().describe('Runs finished (each a new pass of the search)'),
    new_people_total: z.int().describe('People the runs delivered in all'),
    created_at: datetime,
  })
  .meta({ id: 'Monitor' });

export const monitorDeleted = z.strictObject({ id: z.uuid(), deleted: z.literal(true) }).meta({ id: 'MonitorDeleted' });

/** `data` of monitor.matched: the run's new people (at most 200 ids, best first) and where to read them. */
export const monitorMatchedData = z
  .strictObject({
    monitor_id: z.uuid(),
    search_id: z.uuid(),
    project_id: z.uuid(),
    pass: z.int().describe('The search pass the run was'),
    new_people: z.int().describe('People the run delivered, none of them seen before in the project'),
    candidate_ids: z.array(z.uuid()).describe('Their candidate ids, best score first (at most 200)'),
    links: searchLinks.extend({ monitor: z.url(), people: z.url() }),
  })
  .meta({ id: 'MonitorMatchedData' });
