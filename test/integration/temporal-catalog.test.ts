import { inlineBriefReader } from '../../src/briefs/brief-reader';
import { defaultPayloadConverter } from '@temporalio/common';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { WorkflowFailedError } from '@temporalio/client';
import { startWorker } from '../../activities/worker-process';
import { parseQueues } from '../../src/temporal/queues';
import { waitFor } from '../../tools/dev/processes';
import { createLogger } from '../../src/logger';
import { launchSearch } from '../../src/searches/launch.service';
import { searchAttributes } from '../../src/searches/start.service';
import { catalog, ensureSchedules, scheduleIds, schedules, startWorkflow, taskQueueName } from '../../src/temporal/catalog';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { createProject, launch, softwareCriteria, waitForSearch } from '../support/searches';
import { startTestStack, workflowBundlePath, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

const criteria = { ...softwareCriteria, read_budget: 30 };

/** A launch booked exactly as the API books it, but not started: the test starts its workflow. */
async function bookedSearch(f: KeyFixture) {
  const projectId = await createProject(stack, f.headers);
  const { search } = await launchSearch(stack.db, {
    workspace: f.workspace,
    key: f.key,
    projectId,
    idempotencyKey: `catalog-${randomUUID()}`,
    body: { criteria },
    baseUrl: stack.config.publicBaseUrl,
    config: stack.config,
    reader: inlineBriefReader,
  });
  return search;
}

describe('ensureSchedules', () => {
  it('creates the Schedules, leaves an up-to-date one alone and updates one whose spec or arguments changed', async () => {
    const queue = `catalog-${randomUUID()}`;
    const { client } = stack.temporal;
    const declared = schedules.strandedPassSweep.options(queue);
    // What an older release left behind: another interval, other arguments, the wrong queue.
    await client.schedule.create({
      ...declared,
      spec: { intervals: [{ every: '5 minutes' }] },
      action: { ...declared.action, args: [{ old: true }], taskQueue: 'elsewhere' },
      state: { paused: true, note: 'paused by an operator' },
    });
    try {
      const outcomes = await ensureSchedules(client, queue);
      expect(outcomes).toEqual(
        expect.arrayContaining([
          { schedule: 'outboxSweep', scheduleId: scheduleIds.outboxSweep(queue), result: 'created' },
          {
            schedule: 'strandedPassSweep',
            scheduleId: scheduleIds.strandedPassSweep(queue),
            result: 'updated',
            changed: ['spec.intervals', 'action.taskQueue', 'action.args'],
          },
        ]),
      );
      const updated = await client.schedule.getHandle(scheduleIds.strandedPassSweep(queue)).describe();
      expect(updated.spec.intervals?.map((i) => i.every)).toEqual([60_000]);
      expect(updated.action).toMatchObject({ workflowType: 'strandedPassSweepWorkflow', taskQueue: queue, args: [] });
      expect(updated.state).toMatchObject({ paused: true, note: 'paused by an operator' }); // operators' choices are kept
      const outbox = await client.schedule.getHandle(scheduleIds.outboxSweep(queue)).describe();
      expect(outbox.action).toMatchObject({ workflowType: 'outboxSweepWorkflow', taskQueue: taskQueueName(queue, 'webhooks') });
      expect((await ensureSchedules(client, queue)).map((o) => o.result)).toEqual(['unchanged', 'unchanged']);
    } finally {
      for (const id of [scheduleIds.outboxSweep(queue), scheduleIds.strandedPassSweep(queue)])
        await client.schedule
          .getHandle(id)
          .delete()
          .catch(() => undefined);
    }
  });
});

describe('task queues', () => {
  it('webhook workflows run on <queue>-webhooks, the others on the main queue', async () => {
    const f = await workspaceWithKey(stack.db);
    const project = await createProject(stack, f.headers);
    const done = await waitForSearch(stack, f.headers, (await launch(stack, f.headers, project, { criteria })).body.data.id);
    expect((await stack.temporal.client.workflow.getHandle(catalog.search.id(done.id, 1)).describe()).taskQueue).toBe(stack.config.temporal.taskQueue);
    const probe = await startWorkflow(stack.temporal, catalog.healthProbe, { workflowId: catalog.healthProbe.id(randomUUID()), args: ['not-a-probe'] });
    expect((await probe.describe()).taskQueue).toBe(stack.config.temporal.taskQueue);
    await probe.terminate();
  });

  it('`--queues` picks the queues a worker process serves', async () => {
    expect(parseQueues([])).toEqual(['main', 'webhooks']);
    expect(parseQueues(['--queues', 'webhooks'])).toEqual(['webhooks']);
    expect(parseQueues(['--queues=main,webhooks,main'])).toEqual(['main', 'webhooks']);
    expect(() => parseQueues(['--queues', 'search'])).toThrow('unknown: search');
    expect(() => parseQueues(['--queues'])).toThrow('comma-separated list of main, webhooks');

    const config = { ...stack.config, temporal: { ...stack.config.temporal, taskQueue: `catalog-${randomUUID()}` } };
    const handle = await startWorker({
      config,
      db: stack.db,
      logger: createLogger('warn', 'test'),
      queues: ['webhooks'],
      workflowBundle: { code: fs.readFileSync(workflowBundlePath(), 'utf8') },
    });
    try {
      expect(handle.workers.map((w) => w.options.taskQueue)).toEqual([`${config.temporal.taskQueue}-webhooks`]);
    } finally {
      await handle.shutdown();
    }
  });
});

describe('waiting for a slot', () => {
  const slotFreed = (workflowId: string) => stack.temporal.client.workflow.getHandle(workflowId).signal('slotFreed');

  it('continues as new while it waits, keeps answering `progress` and its search attributes, and still completes', async () => {
    const f = await workspaceWithKey(stack.db, { workspace: { max_concurrent_searches: 0 } });
    const search = await bookedSearch(f);
    const workflowId = catalog.search.id(search.id, 1);
    const first = await startWorkflow(stack.temporal, catalog.search, {
      workflowId,
      args: [{ searchId: search.id, pass: 1, waitRoundsPerRun: 2 }],
      typedSearchAttributes: searchAttributes(search),
    });
    // Each signal makes the run claim again; the second unsuccessful claim continues as new.
    const latest = stack.temporal.client.workflow.getHandle(workflowId);
    await waitFor(
      'a continued run',
      async () => {
        await slotFreed(workflowId).catch(() => undefined);
        return (await latest.describe()).runId !== first.firstExecutionRunId;
      },
      20_000,
      300,
    );
    expect(await latest.query('progress')).toMatchObject({ search_id: search.id, pass: 1, phase: 'waiting_for_slot' });
    const description = await latest.describe();
    expect(
      description.typedSearchAttributes
        .getAll()
        // Temporal's own: the worker's build ids and the patches the run took (`patched`).
        .filter((p) => p.key.name !== 'BuildIds' && p.key.name !== 'TemporalChangeVersion')
        .map((p) => `${p.key.name}=${p.value}`)
        .sort(),
    ).toEqual([`ProjectId=${search.project_id}`, `SearchId=${search.id}`, `WorkspaceId=${f.workspace.id}`]);

    await stack.db('workspaces').where({ id: f.workspace.id }).update({ max_concurrent_searches: 1 });
    await slotFreed(workflowId);
    const result = await latest.result();
    expect(result).toMatchObject({ search_id: search.id, phase: 'complete' });
    expect(await latest.query('progress')).toMatchObject({ phase: 'complete' });
    const after = await waitForSearch(stack, f.headers, search.id);
    expect(after).toMatchObject({ status: 'complete', profiles_read: result.profiles_read });
    expect(after.profiles_read).toBeGreaterThan(0);
  });

  it('a database pass waits for a slot like any other pass', async () => {
    const f = await workspaceWithKey(stack.db, { workspace: { max_concurrent_searches: 1 } });
    const project = await createProject(stack, f.headers);
    const done = await waitForSearch(stack, f.headers, (await launch(stack, f.headers, project, { criteria })).body.data.id);
    await stack.db('workspaces').where({ id: f.workspace.id }).update({ max_concurrent_searches: 0 });
    const res = await stack.request('POST', `/v1/searches/${done.id}/database-pass`, { headers: f.headers });
    expect(res.status).toBe(202);
    expect(res.body.data.search.status).toBe('queued');
    const workflowId = res.body.data.workflow_id;
    await waitFor(
      'the pass to claim',
      async () => (await stack.temporal.client.workflow.getHandle(workflowId).fetchHistory()).events!.some((e) => e.activityTaskCompletedEventAttributes),
      10_000,
      100,
    );
    expect(await stack.db('search_passes').where({ search_id: done.id, pass: 2 }).first()).toMatchObject({ status: 'queued' });
    expect((await stack.db('searches').where({ id: done.id }).first()).status).toBe('queued');

    await stack.db('workspaces').where({ id: f.workspace.id }).update({ max_concurrent_searches: 1 });
    await slotFreed(workflowId);
    await stack.temporal.client.workflow.getHandle(workflowId).result();
    const after = await waitForSearch(stack, f.headers, done.id);
    expect(after).toMatchObject({ status: 'complete', passes: 2, last_pass: { kind: 'database_pass', status: 'complete' } });
    const started = await stack.db('outbox_events').where({ type: 'search.started' }).whereRaw("data->>'search_id' = ?", [done.id]).count({ n: '*' }).first();
    expect(Number(started!.n)).toBe(2); // the launch and the database pass each took a slot
  });

  it('a slot claim for a search that is not waiting fails at once, without retries, and fails the pass', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 3 });
    const search = await bookedSearch(f);
    await stack.db('searches').where({ id: search.id }).update({ status: 'complete' }); // a bad state: not queued
    const handle = await startWorkflow(stack.temporal, catalog.search, {
      workflowId: catalog.search.id(search.id, 1),
      args: [{ searchId: search.id, pass: 1 }],
    });
    await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    // The claim is a local activity: its one attempt is a marker.
    const claims = (await handle.fetchHistory())
      .events!.map((e) => e.markerRecordedEventAttributes)
      .filter((m) => m?.markerName === 'core_local_activity')
      .map((m) => ({
        data: defaultPayloadConverter.fromPayload<{ activity_type: string; attempt: number }>(m!.details!.data.payloads![0]),
        failure: m!.failure,
      }))
      .filter((c) => c.data.activity_type === 'claimSearchSlot');
    expect(claims).toHaveLength(1);
    expect(claims[0].data.attempt).toBe(1);
    expect(claims[0].failure?.cause?.applicationFailureInfo ?? claims[0].failure?.applicationFailureInfo).toMatchObject({
      type: 'search_not_queued',
      nonRetryable: true,
    });
    expect(await stack.db('search_passes').where({ search_id: search.id, pass: 1 }).first()).toMatchObject({ status: 'failed' });
  });
});
