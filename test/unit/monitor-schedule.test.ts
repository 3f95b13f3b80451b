import { ScheduleOverlapPolicy } from '@temporalio/client';
import { cadenceSeconds, monitorScheduleOptions, nextRunAt } from '../../src/monitors/monitor-schedule';

const anchor = new Date('2026-11-28T10:17:42.345Z');
const monitor = {
  id: '5f0c6d6e-3a4b-4c8d-9e1f-2a3b4c5d6e7f',
  workspace_id: '11111111-1111-4111-8111-111111111111',
  project_id: '22222222-2222-4222-8222-222222222222',
  search_id: '33333333-3333-4333-8333-333333333333',
  status: 'active' as const,
  paused_reason: null,
  anchor_at: anchor,
};

describe('monitor schedules', () => {
  it('run one period after the anchor, then every period, in whole seconds as Temporal keeps them', () => {
    expect(nextRunAt(monitor, 3600, anchor.getTime())!.toISOString()).toBe('2026-11-28T11:17:42.000Z');
    expect(nextRunAt(monitor, 3600, Date.parse('2026-11-28T11:17:42.000Z'))!.toISOString()).toBe('2026-11-28T12:17:42.000Z');
    expect(nextRunAt(monitor, 86_400, Date.parse('2026-12-01T00:00:00Z'))!.toISOString()).toBe('2026-12-01T10:17:42.000Z');
    expect(nextRunAt({ ...monitor, status: 'paused' }, 3600)).toBeNull();
  });

  it('MONITOR_EVERY_SECONDS replaces every cadence', () => {
    expect([cadenceSeconds('hour', null), cadenceSeconds('day', null), cadenceSeconds('week', null)]).toEqual([3600, 86_400, 604_800]);
    expect(cadenceSeconds('week', 3)).toBe(3);
  });

  it('declare the interval, one run at a time, the search attributes and the paused state', () => {
    const options = monitorScheduleOptions('sourcing', { ...monitor, status: 'paused', paused_reason: 'no_credit' }, 3600);
    expect(options.scheduleId).toBe(`monitor-${monitor.id}`);
    expect(options.spec.intervals).toEqual([{ every: 3_600_000, offset: (17 * 60 + 42) * 1000 }]);
    expect(options.action).toMatchObject({
      workflowType: 'monitorRunWorkflow',
      workflowId: `monitor-${monitor.id}`,
      taskQueue: 'sourcing',
      args: [{ monitorId: monitor.id }],
    });
    expect(options.policies?.overlap).toBe(ScheduleOverlapPolicy.SKIP);
    expect(options.state).toEqual({ paused: true, note: 'paused: no_credit' });
    const attributes = options.typedSearchAttributes as { getAll(): { key: { name: string }; value: unknown }[] };
    expect(attributes.getAll().map((p) => `${p.key.name}=${p.value}`)).toEqual([
      `WorkspaceId=${monitor.workspace_id}`,
      `ProjectId=${monitor.project_id}`,
      `SearchId=${monitor.search_id}`,
    ]);
  });
});
