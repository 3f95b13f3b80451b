import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { creditLedgerRepository } from '../../src/db/credit-ledger.repository';
import { waitFor } from '../../tools/dev/processes';
import { failPass } from '../../src/searches/pass.service';
import { workspaceWithKey } from '../support/fixtures';
import { createProject, launch, softwareCriteria, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

const ROOT = path.resolve(__dirname, '..', '..');
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

const events = (searchId: string) =>
  stack.db('outbox_events').whereRaw("data->>'search_id' = ?", [searchId]).orderBy('created_at').select('id', 'type', 'data', 'created_at');

describe('the search workflow', () => {
  it('writes search.started, one search.completed and shortlist.changed to the outbox, with absolute links', async () => {
    const fixture = await workspaceWithKey(stack.db);
    const project = await createProject(stack, fixture.headers);
    const res = await launch(stack, fixture.headers, project, { criteria: { ...softwareCriteria, shortlist_threshold: 30 } });
    const done = await waitForSearch(stack, fixture.headers, res.body.data.id);
    expect(done.shortlisted).toBeGreaterThan(0);
    const types = (await events(done.id)).map((e) => e.type);
    expect(types).toEqual(['search.started', 'search.completed', 'shortlist.changed']);
    const [completed] = (await events(done.id)).filter((e) => e.type === 'search.completed');
    expect(completed.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(completed.data).toEqual({
      search_id: done.id,
      project_id: project,
      status: 'complete',
      outcome: done.outcome,
      stop_reason: done.stop_reason,
      profiles_read: done.profiles_read,
      delivered: done.delivered,
      shortlisted: done.shortlisted,
      closed_at: done.closed_at,
      links: {
        search: `${stack.config.publicBaseUrl}/searches/${done.id}`,
        records: `${stack.config.publicBaseUrl}/searches/${done.id}/records`,
        records_csv: `${stack.config.publicBaseUrl}/searches/${done.id}/records.csv`,
        shortlist: `${stack.config.publicBaseUrl}/projects/${project}/shortlist`,
        shortlist_csv: `${stack.config.publicBaseUrl}/projects/${project}/shortlist.csv`,
      },
    });
    const [changed] = (await events(done.id)).filter((e) => e.type === 'shortlist.changed');
    expect(changed.data).toMatchObject({
      project_id: project,
      search_id: done.id,
      kind: 'pass',
      source: 'search',
      list_before: { count: 0, candidate_ids: [] },
      list_after: { count: done.shortlisted },
    });
    const members = await stack.db('shortlist_members').where({ project_id: project });
    expect(members).toHaveLength(done.shortlisted);
    expect(JSON.stringify(changed.data)).not.toContain('"skills"'); // ids and counts, never profiles
  });

  it('answers the progress query', async () => {
    const fixture = await workspaceWithKey(stack.db);
    const project = await createProject(stack, fixture.headers);
    const res = await launch(stack, fixture.headers, project, { criteria: softwareCriteria });
    const done = await waitForSearch(stack, fixture.headers, res.body.data.id);
    const progress = await stack.temporal.client.workflow.getHandle(`search-${done.id}-pass-1`).query('progress');
    expect(progress).toMatchObject({ search_id: done.id, pass: 1, phase: 'complete', profiles_read: done.profiles_read, shortlisted: done.shortlisted });
    const description = await stack.temporal.client.workflow.getHandle(`search-${done.id}-pass-1`).describe();
    expect(
      description.typedSearchAttributes
        .getAll()
        // Temporal's own: the worker's build ids and the patches the run took (`patched`).
        .filter((p) => p.key.name !== 'BuildIds' && p.key.name !== 'TemporalChangeVersion')
        .map((p) => `${p.key.name}=${p.value}`)
        .sort(),
    ).toEqual([`ProjectId=${project}`, `SearchId=${done.id}`, `WorkspaceId=${fixture.workspace.id}`]);
  });

  it('queues FIFO under the workspace concurrency limit and emits search.queued for waiting launches', async () => {
    const fixture = await workspaceWithKey(stack.db, { credits: 10, workspace: { max_concurrent_searches: 1 } });
    const project = await createProject(stack, fixture.headers);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await launch(stack, fixture.headers, project, { criteria: { ...softwareCriteria, read_budget: 30 + i } })).body.data.id);
    const done = [];
    for (const id of ids) done.push(await waitForSearch(stack, fixture.headers, id));
    const rows = await stack.db('searches').whereIn('id', ids).select('id', 'started_at', 'closed_at');
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (let i = 1; i < ids.length; i++) {
      // Never two at once: each started after the one before it closed, in launch order.
      expect(byId.get(ids[i]).started_at.getTime()).toBeGreaterThanOrEqual(byId.get(ids[i - 1]).closed_at.getTime());
    }
    expect((await events(ids[0])).map((e) => e.type)).not.toContain('search.queued');
    expect((await events(ids[1])).map((e) => e.type)[0]).toBe('search.queued');
    expect(done.every((d) => d.status === 'complete')).toBe(true);
  });

  it('fails a cancelled search with outcome null and gives the credit back exactly once', async () => {
    const fixture = await workspaceWithKey(stack.db, { credits: 3, workspace: { max_concurrent_searches: 0 } });
    const project = await createProject(stack, fixture.headers);
    const res = await launch(stack, fixture.headers, project, { criteria: softwareCriteria });
    const ledger = creditLedgerRepository(stack.db);
    expect(await ledger.balance(fixture.workspace.id, 'workspace')).toBe(2);
    // With no slot the pass waits; cancelling it is a failure before finishing.
    await stack.temporal.client.workflow.getHandle(`search-${res.body.data.id}-pass-1`).cancel();
    const failed = await waitForSearch(stack, fixture.headers, res.body.data.id);
    expect(failed).toMatchObject({ status: 'failed', outcome: null, stop_reason: 'cancelled' });
    expect(await ledger.balance(fixture.workspace.id, 'workspace')).toBe(3);
    // A retried failure step changes nothing.
    await failPass(stack.db, { searchId: failed.id, pass: 1, reason: 'retry' }, stack.config.publicBaseUrl);
    expect(await ledger.balance(fixture.workspace.id, 'workspace')).toBe(3);
    expect(await stack.db('credit_ledger').where({ workspace_id: fixture.workspace.id }).count({ n: '*' }).first()).toEqual({ n: 3 });
    const types = (await events(failed.id)).map((e) => e.type);
    expect(types.filter((t) => t === 'search.failed')).toHaveLength(1);
    expect((await events(failed.id)).find((e) => e.type === 'search.failed')!.data.outcome).toBeNull();
  });
});

describe('durability', () => {
  function startWorkerProcess(taskQueue: string): ChildProcess {
    return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'activities/worker.ts')], {
      cwd: ROOT,
      env: { ...process.env, TEMPORAL_TASK_QUEUE: taskQueue, SEARCH_PAGE_DELAY_MS: '250', LOG_LEVEL: 'warn', SWEEP_SCHEDULES_ON_START: 'false' },
      stdio: 'ignore',
    });
  }

  it('a worker killed mid-search: a new worker completes it with correct counts and nothing doubled', async () => {
    const api = await startTestStack({ worker: false });
    const taskQueue = api.config.temporal.taskQueue;
    let worker = startWorkerProcess(taskQueue);
    try {
      const fixture = await workspaceWithKey(stack.db, { credits: 2 });
      const project = await createProject(api, fixture.headers);
      const res = await launch(api, fixture.headers, project, {
        criteria: { family: 'software_engineering', read_budget: 150, target: 200, shortlist_threshold: 40 },
      });
      const searchId = res.body.data.id;
      await waitFor('two pages done', async () => (await stack.db('searches').where({ id: searchId }).first()).pages_fetched >= 2, 60_000, 50);
      worker.kill('SIGKILL');
      const atKill = await stack.db('searches').where({ id: searchId }).first();
      expect(atKill.status).toBe('running');

      worker = startWorkerProcess(taskQueue);
      const done = await waitForSearch(api, fixture.headers, searchId, ['complete', 'failed'], 120_000);
      expect(done).toMatchObject({ status: 'complete', stop_reason: 'read_budget_reached', profiles_read: 150, delivered: 150 });

      const people = await stack.db('search_people').where({ search_id: searchId }).select('person_id', 'seq', 'status', 'page');
      expect(new Set(people.map((p) => p.person_id)).size).toBe(people.length);
      expect(people.filter((p) => p.status === 'scored')).toHaveLength(150);
      expect(people.map((p) => p.seq).sort((a, b) => a - b)).toEqual(people.map((_, i) => i + 1));
      const pages = await stack.db('search_pages').where({ search_id: searchId }).orderBy('page');
      expect(pages.map((p) => p.page)).toEqual(pages.map((_, i) => i));
      expect(done.pages_fetched).toBe(pages.length);
      const members = await stack.db('shortlist_members').where({ project_id: project });
      expect(members).toHaveLength(done.shortlisted);
      expect(await creditLedgerRepository(stack.db).balance(fixture.workspace.id, 'workspace')).toBe(1);
      expect((await events(searchId)).filter((e) => e.type === 'search.completed')).toHaveLength(1);
    } finally {
      worker.kill('SIGTERM');
      await api.stop();
    }
  }, 180_000);
});
