import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ScheduleNotFoundError } from '@temporalio/client';
import { startWorker, type WorkerHandle } from '../../activities/worker-process';
import { createCredential } from '../../src/credentials/credentials.service';
import { creditLedgerRepository } from '../../src/db/credit-ledger.repository';
import { createLogger } from '../../src/logger';
import { beginMonitorRun, finishMonitorRun } from '../../src/monitors/monitor-run.service';
import { scheduleIds } from '../../src/temporal/catalog';
import { freePort, ProcessGroup, waitFor } from '../../tools/dev/processes';
import { startTemporalDevServer, type TemporalServerOptions } from '../../tools/dev/temporal-server';
import { PDL_GOOD_KEY, startPdlFake, type PdlFake } from '../fakes/pdl-fake';
import { cli } from '../support/cli';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import type { HttpsReceiver } from '../support/https-receiver';
import { createProject, launch, waitForSearch } from '../support/searches';
import { startTestStack, workflowBundlePath, type TestStack } from '../support/stack';
import { expectSignedEnvelope, SINK_ENV, startWebhookSink } from '../support/webhook-sink';

/**
 * Monitors (DESIGN.md §13) against a Temporal server of this file's own, whose state is kept in a
 * file so it can be killed and started again, with every cadence MONITOR_EVERY_SECONDS = 3 s.
 * The monitored searches read one occupation whose pool is under two pages (about 40 people):
 * a launch with a budget of 25 reads the first page, a monitor's first run reads the rest of the
 * pool, and its later runs find nobody new.
 */

const EVERY = 3;
const group = new ProcessGroup(() => undefined);
let temporalOptions: TemporalServerOptions;
let temporalPid: number | undefined;
let stack: TestStack;
let worker: WorkerHandle | null = null;
let pdl: PdlFake;
let sink: HttpsReceiver;
let f: KeyFixture;
const monitorIds: string[] = [];

/** Educational, Guidance, and Career Counselors: a pool of about 40 people in the corpus. */
const criteria = { occupations: ['21-1012.00'], read_budget: 25, target: 25 };

beforeAll(async () => {
  const [port, httpPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort()]);
  temporalOptions = {
    cli: process.env.TEMPORAL_CLI!,
    port,
    uiPort: null,
    httpPort,
    metricsPort,
    namespace: 'default',
    dbFile: path.join(process.env.TEST_RUN_DIR!, `monitors-temporal-${port}.db`),
    quiet: true,
  };
  [temporalPid, pdl, sink] = await Promise.all([startTemporalDevServer(group, temporalOptions).then((t) => t.pid), startPdlFake(), startWebhookSink()]);
  stack = await startTestStack({
    env: {
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
      MONITOR_EVERY_SECONDS: String(EVERY),
      PEOPLEDATALABS_BASE_URL: pdl.url,
      PEOPLEDATALABS_API_KEY: '',
      ...SINK_ENV,
    },
  });
  f = await workspaceWithKey(stack.db, { credits: 20 });
}, 120_000);

afterAll(async () => {
  for (const id of monitorIds) await deleteSchedule(id);
  await worker?.shutdown();
  await stack?.stop();
  await Promise.all([pdl?.close(), sink?.close()]);
  await group.stopAll(2000);
});

const deleteSchedule = (id: string) =>
  stack.temporal.client.schedule
    .getHandle(scheduleIds.monitor(id))
    .delete()
    .catch(() => undefined);
const describeSchedule = (id: string) => stack.temporal.client.schedule.getHandle(scheduleIds.monitor(id)).describe();

async function watch(headers: Record<string, string>, projectId: string, body: unknown) {
  const res = await stack.request('POST', `/v1/projects/${projectId}/monitors`, { headers, body });
  if (res.status !== 201) throw new Error(res.text);
  monitorIds.push(res.body.data.id);
  return res.body.data;
}
const monitorOf = async (id: string, headers = f.headers) => (await stack.request('GET', `/v1/monitors/${id}`, { headers })).body.data;
const runsOf = (id: string) => stack.db('monitor_runs').where({ monitor_id: id }).orderBy('started_at');
const finishedRuns = async (id: string) => (await runsOf(id)).filter((r) => r.finished_at !== null && r.status !== 'skipped');
const matchedEvents = (id: string) =>
  stack.db('outbox_events').where({ type: 'monitor.matched' }).whereRaw(`data->>'monitor_id' = ?`, [id]).orderBy('created_at');
const personIds = async (searchId: string, pass?: number) =>
  (
    await stack
      .db('search_people')
      .where({ search_id: searchId, ...(pass ? { pass } : {}) })
      .select('person_id')
  ).map((r) => r.person_id as string);

/** Waits until the monitor has finished `n` more runs than `from` (skipped runs do not count). */
async function runsFinish(id: string, from: number, n: number, timeoutMs = 60_000) {
  await waitFor(`${n} more runs of monitor ${id}`, async () => (await finishedRuns(id)).length >= from + n, timeoutMs, 250);
}

async function completedSearch(headers: Record<string, string>, projectId: string, body: unknown = { criteria }) {
  const res = await launch(stack, headers, projectId, body);
  if (res.status !== 201) throw new Error(res.text);
  return waitForSearch(stack, headers, res.body.data.id);
}

describe('creating a monitor', () => {
  it('watches a search of the project only, one monitor per search, and refuses bad input with clear errors', async () => {
    const projectId = await createProject(stack, f.headers);
    const otherProject = await createProject(stack, f.headers);
    const search = await completedSearch(f.headers, otherProject);
    const post = (body: unknown, project = projectId) => stack.request('POST', `/v1/projects/${project}/monitors`, { headers: f.headers, body });

    const elsewhere = await post({ search_id: search.id, every: 'day' });
    expect([elsewhere.status, elsewhere.body.error.code, elsewhere.body.error.details]).toEqual([404, 'search_not_found', { search_id: search.id }]);
    const bad = await post({ search_id: search.id, every: 'minute' }, otherProject);
    expect([bad.status, bad.body.error.code, bad.body.error.details.problems]).toEqual([
      400,
      'invalid_request',
      [{ field: 'every', message: 'every must be one of hour, day, week' }],
    ]);

    const created = await watch(f.headers, otherProject, { search_id: search.id, every: 'week' });
    expect(created).toMatchObject({ project_id: otherProject, search_id: search.id, every: 'week', status: 'active', paused_reason: null, runs: 0 });
    expect(created).toMatchObject({ last_run_at: null, new_people_total: 0 });
    // The Schedule runs every MONITOR_EVERY_SECONDS here; next_run_at is its next action.
    const schedule = await describeSchedule(created.id);
    expect(schedule.action).toMatchObject({
      workflowType: 'monitorRunWorkflow',
      taskQueue: stack.config.temporal.taskQueue,
      args: [{ monitorId: created.id }],
    });
    expect(schedule.spec.intervals?.[0].every).toBe(EVERY * 1000);
    expect(schedule.info.nextActionTimes[0].toISOString()).toBe((await monitorOf(created.id)).next_run_at);
    const attributes = schedule.typedSearchAttributes.getAll().map((p) => `${p.key.name}=${p.value}`);
    expect(attributes.sort()).toEqual([`ProjectId=${otherProject}`, `SearchId=${search.id}`, `WorkspaceId=${f.workspace.id}`]);

    const again = await post({ search_id: search.id, every: 'day' }, otherProject);
    expect([again.status, again.body.error.code, again.body.error.details]).toEqual([409, 'monitor_exists', { monitor_id: created.id }]);
    const empty = await stack.request('PATCH', `/v1/monitors/${created.id}`, { headers: f.headers, body: {} });
    expect([empty.status, empty.body.error.code]).toEqual([400, 'invalid_request']);
    const listed = await stack.request('GET', `/v1/projects/${otherProject}/monitors?search_id=${search.id}`, { headers: f.headers });
    expect([listed.body.meta.total, listed.body.data[0].id]).toEqual([1, created.id]);

    const deleted = await stack.request('DELETE', `/v1/monitors/${created.id}`, { headers: f.headers });
    expect(deleted.body.data).toEqual({ id: created.id, deleted: true });
    await expect(describeSchedule(created.id)).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect((await stack.request('GET', `/v1/monitors/${created.id}`, { headers: f.headers })).status).toBe(404);
  });
});

describe('runs', () => {
  let projectId: string;
  let first: { id: string; passes: number };
  let monitorId: string;

  it('deliver only people the project has not seen, with monitor.matched once for the run that found some and nothing for runs that found nobody', async () => {
    const hook = await stack.request('POST', '/v1/webhooks', { headers: f.headers, body: { url: `${sink.origin}/monitors`, events: ['monitor.matched'] } });
    projectId = await createProject(stack, f.headers);
    first = await completedSearch(f.headers, projectId);
    const launched = new Set(await personIds(first.id));
    expect(launched.size).toBe(25);
    monitorId = (await watch(f.headers, projectId, { search_id: first.id, every: 'hour' })).id;

    await runsFinish(monitorId, 0, 3);
    const [found, ...after] = await finishedRuns(monitorId);
    expect(found).toMatchObject({ status: 'matched', pass: 2, search_id: first.id });
    expect(found.new_people).toBeGreaterThan(0);
    expect(after.slice(0, 2).map((r) => [r.status, r.new_people])).toEqual([
      ['no_new_people', 0],
      ['no_new_people', 0],
    ]);
    const delivered = await personIds(first.id, found.pass);
    expect(delivered).toHaveLength(found.new_people);
    expect(delivered.filter((p) => launched.has(p))).toEqual([]);

    const events = await matchedEvents(monitorId);
    expect(events).toHaveLength(1);
    expect(events[0].id).toBe(found.event_id);
    expect(events[0].data).toMatchObject({ monitor_id: monitorId, search_id: first.id, project_id: projectId, pass: found.pass, new_people: found.new_people });
    expect(events[0].data.candidate_ids).toHaveLength(found.new_people);
    expect(events[0].data.links.monitor).toBe(`${stack.config.publicBaseUrl}/monitors/${monitorId}`);
    await waitFor('the delivery', async () => sink.received.some((r) => r.path === '/monitors'), 30_000, 100);
    const [arrived] = sink.received.filter((r) => r.path === '/monitors');
    expect(arrived.json.type).toBe('monitor.matched');
    await expectSignedEnvelope(stack.db, arrived, hook.body.data.secret, f.workspace.id);

    const monitor = await monitorOf(monitorId);
    expect(monitor.runs).toBeGreaterThanOrEqual(3);
    expect(monitor.new_people_total).toBe(found.new_people);
    expect(monitor.last_run_at).not.toBeNull();
    // Each run is a pass of the search; its people are the search's people.
    const search = (await stack.request('GET', `/v1/searches/${first.id}`, { headers: f.headers })).body.data;
    expect(search.passes).toBeGreaterThanOrEqual(4);
    expect(search.delivered).toBe(25 + found.new_people);
    expect(search.last_pass.kind).toBe('monitor');
  });

  it('a monitor of another search of the project skips the people the first monitor delivered: nobody is delivered twice', async () => {
    const second = await completedSearch(f.headers, projectId);
    const other = (await watch(f.headers, projectId, { search_id: second.id, every: 'day' })).id;
    await runsFinish(other, 0, 2);
    expect((await finishedRuns(other)).slice(0, 2).map((r) => [r.status, r.new_people])).toEqual([
      ['no_new_people', 0],
      ['no_new_people', 0],
    ]);
    expect(await matchedEvents(other)).toEqual([]);
    expect((await stack.request('DELETE', `/v1/monitors/${other}`, { headers: f.headers })).status).toBe(200);
  });

  it('a retried step books no second pass and writes no second event', async () => {
    const [found] = await finishedRuns(monitorId);
    const ref = { monitorId, runId: found.run_id };
    expect(await beginMonitorRun(stack.db, stack.config, ref)).toEqual({
      start: { run: null, outcome: { status: 'matched', reason: null, pass: found.pass, newPeople: found.new_people } },
      schedule: null,
    });
    expect(await finishMonitorRun(stack.db, ref, stack.config.publicBaseUrl)).toEqual({
      status: 'matched',
      reason: null,
      pass: found.pass,
      newPeople: found.new_people,
    });
    expect(await matchedEvents(monitorId)).toHaveLength(1);
  });

  it('pause stops the runs and resume starts them again', async () => {
    const paused = await stack.request('PATCH', `/v1/monitors/${monitorId}`, { headers: f.headers, body: { status: 'paused' } });
    expect(paused.body.data).toMatchObject({ status: 'paused', paused_reason: 'manual', next_run_at: null });
    expect((await describeSchedule(monitorId)).state.paused).toBe(true);
    await new Promise((r) => setTimeout(r, EVERY * 1000)); // a run under way when it was paused ends
    const before = (await runsOf(monitorId)).length;
    await new Promise((r) => setTimeout(r, 3 * EVERY * 1000));
    expect((await runsOf(monitorId)).length).toBe(before);

    const resumed = await stack.request('PATCH', `/v1/monitors/${monitorId}`, { headers: f.headers, body: { status: 'active' } });
    expect(resumed.body.data).toMatchObject({ status: 'active', paused_reason: null });
    expect(new Date(resumed.body.data.next_run_at).getTime()).toBeGreaterThan(Date.now() - 1000);
    expect((await describeSchedule(monitorId)).state.paused).toBe(false);
    await runsFinish(monitorId, (await finishedRuns(monitorId)).length, 2);
  });

  it('keeps running across a worker restart and a Temporal server restart: the Schedule lives in Temporal', async () => {
    await stack.worker!.shutdown();
    const idle = (await finishedRuns(monitorId)).length;
    await new Promise((r) => setTimeout(r, 2 * EVERY * 1000));
    expect((await finishedRuns(monitorId)).length).toBeLessThanOrEqual(idle + 1); // at most the run that was under way
    worker = await startWorker({
      config: stack.config,
      db: stack.db,
      logger: createLogger('warn', 'test'),
      workflowBundle: { code: fs.readFileSync(workflowBundlePath(), 'utf8') },
    });
    await runsFinish(monitorId, (await finishedRuns(monitorId)).length, 2);

    process.kill(temporalPid!, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 2000));
    temporalPid = (await startTemporalDevServer(group, temporalOptions)).pid;
    expect((await describeSchedule(monitorId)).state.paused).toBe(false);
    await runsFinish(monitorId, (await finishedRuns(monitorId)).length, 2, 90_000);
    expect(await matchedEvents(monitorId)).toHaveLength(1); // the pool was read by the first run
  }, 180_000);

  it('a run reconciles the Schedule: a paused monitor pauses a Schedule left running, a deleted one deletes it', async () => {
    // As if the Temporal step of a pause or delete had failed after the commit.
    await stack.db('monitors').where({ id: monitorId }).update({ status: 'paused', paused_reason: 'manual' });
    await waitFor('the Schedule paused by a run', async () => (await describeSchedule(monitorId)).state.paused, 30_000, 250);
    await stack.db('monitors').where({ id: monitorId }).update({ status: 'active', paused_reason: null });
    await stack.request('PATCH', `/v1/monitors/${monitorId}`, { headers: f.headers, body: { status: 'active' } });
    await stack.db('monitors').where({ id: monitorId }).delete();
    await waitFor(
      'the Schedule deleted by a run',
      () =>
        describeSchedule(monitorId).then(
          () => false,
          (err) => err instanceof ScheduleNotFoundError,
        ),
      30_000,
      250,
    );
  });
});

describe('credits', () => {
  it('a live run uses 1 credit; a monitor whose workspace has none left pauses itself (no_credit) instead of running', async () => {
    const live = await workspaceWithKey(stack.db, { credits: 2 });
    await createCredential(stack.db, stack.config, live.workspace.id, { provider: 'peopledatalabs', apiKey: PDL_GOOD_KEY, label: 'default' });
    const projectId = await createProject(stack, live.headers);
    const search = await completedSearch(live.headers, projectId, {
      criteria: { titles: ['Backend Engineer', 'Data Scientist'], skills: ['TypeScript'], target: 25 },
    });
    expect(search.criteria.mode).toBe('live');
    const balance = () => creditLedgerRepository(stack.db).balance(live.workspace.id, 'workspace');
    expect(await balance()).toBe(1);

    const { id } = await watch(live.headers, projectId, { search_id: search.id, every: 'hour' });
    await waitFor('the monitor to pause itself', async () => (await monitorOf(id, live.headers)).status === 'paused', 60_000, 250);
    // One run read the source again (its people all seen already) and used the last credit; the next one paused.
    expect((await runsOf(id)).map((r) => [r.status, r.reason])).toEqual([
      ['no_new_people', null],
      ['paused', 'no_credit'],
    ]);
    expect(await balance()).toBe(0);
    const charged = await stack.db('credit_ledger').where({ workspace_id: live.workspace.id, reason: 'search:monitor' }).select('delta');
    expect(charged).toEqual([{ delta: -1 }]);
    expect(await monitorOf(id, live.headers)).toMatchObject({ status: 'paused', paused_reason: 'no_credit', next_run_at: null, runs: 1 });
    await waitFor('the Schedule paused', async () => (await describeSchedule(id)).state.paused, 10_000, 250);
    expect(await matchedEvents(id)).toEqual([]);
  });
});

describe('the operator CLI', () => {
  it('lists, pauses and resumes monitors', async () => {
    const projectId = await createProject(stack, f.headers);
    const search = await completedSearch(f.headers, projectId);
    const { id } = await watch(f.headers, projectId, { search_id: search.id, every: 'week' });
    // The CLI reads its configuration from the environment: this file's Temporal server.
    const saved = { TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS, MONITOR_EVERY_SECONDS: process.env.MONITOR_EVERY_SECONDS };
    Object.assign(process.env, { TEMPORAL_ADDRESS: stack.config.temporal.address, MONITOR_EVERY_SECONDS: String(EVERY) });
    try {
      const list = await cli('monitors', 'list', '--workspace', f.workspace.id, '--json');
      expect(list.code).toBe(0);
      expect(JSON.parse(list.out).monitors.find((m: { id: string }) => m.id === id)).toMatchObject({ status: 'active', every: 'week', search_id: search.id });
      const pause = await cli('monitors', 'pause', id);
      expect([pause.code, pause.out]).toEqual([0, expect.stringContaining(`Paused ${id}`)]);
      expect((await describeSchedule(id)).state.paused).toBe(true);
      expect(await monitorOf(id)).toMatchObject({ status: 'paused', paused_reason: 'manual' });
      const text = await cli('monitors', 'list', '--status', 'paused');
      expect(text.out).toContain(`${id}  workspace ${f.workspace.id}`);
      const resume = await cli('monitors', 'resume', id, '--json');
      expect(JSON.parse(resume.out)).toMatchObject({ id, status: 'active', paused_reason: null });
      expect((await describeSchedule(id)).state.paused).toBe(false);
      expect((await cli('monitors', 'pause', randomUUID())).code).toBe(2);
    } finally {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  });
});
