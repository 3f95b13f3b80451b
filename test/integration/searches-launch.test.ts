import { BRIEF_MAX_LENGTH } from '../../src/briefs/brief-limits';
import { randomUUID } from 'node:crypto';
import { creditLedgerRepository } from '../../src/db/credit-ledger.repository';
import { searchLimits } from '../../src/searches/launch.service';
import { catalog } from '../../src/temporal/catalog';
import { workspaceWithKey, keyFor, type KeyFixture } from '../support/fixtures';
import { createProject, launch, softwareCriteria, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

const balance = (ws: string, bucket: 'workspace' | 'contract_pool' = 'workspace') => creditLedgerRepository(stack.db).balance(ws, bucket);

describe('POST /v1/projects/{projectId}/searches', () => {
  let caller: KeyFixture;
  let projectId: string;
  beforeAll(async () => {
    caller = await workspaceWithKey(stack.db, { credits: 20 });
    projectId = await createProject(stack, caller.headers);
  });

  it('launches (201, reused false), runs to complete, and reserves exactly one credit', async () => {
    const before = await balance(caller.workspace.id);
    const res = await launch(stack, caller.headers, projectId, { criteria: softwareCriteria });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ search_id: res.body.data.id, project_id: projectId, reused: false });
    expect(['queued', 'running']).toContain(res.body.data.status);
    const done = await waitForSearch(stack, caller.headers, res.body.data.id);
    expect(done).toMatchObject({
      status: 'complete',
      outcome: expect.stringMatching(/^(Shortlist ready|Poor yield|No results)$/),
      closed_at: expect.any(String),
    });
    expect(done.profiles_read).toBeLessThanOrEqual(60);
    expect(done.delivered).toBe(done.profiles_read);
    expect(done.shortlisted).toBeLessThanOrEqual(10);
    expect(['target_reached', 'pool_exhausted', 'read_budget_reached']).toContain(done.stop_reason);
    expect(done.criteria).toMatchObject({ family: 'software_engineering', target: 10, read_budget: 60, shortlist_threshold: 50 });
    expect(done.links.search).toBe(`${stack.config.publicBaseUrl}/searches/${done.id}`);
    expect(await balance(caller.workspace.id)).toBe(before - 1);
  });

  it('replays the same key, project and body (key order ignored) as 200 reused:true without a second credit', async () => {
    const key = `replay-${randomUUID()}`;
    const first = await launch(stack, caller.headers, projectId, { criteria: { family: 'software_engineering', target: 5, read_budget: 30 } }, key);
    const after = await balance(caller.workspace.id);
    const replay = await launch(stack, caller.headers, projectId, { criteria: { read_budget: 30, target: 5, family: 'software_engineering' } }, key);
    expect(replay.status).toBe(200);
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect(replay.body.data.reused).toBe(true);
    expect(await balance(caller.workspace.id)).toBe(after);
  });

  it('refuses a reused key with another body or project: 409 idempotency_key_reused, nothing charged', async () => {
    const key = `reuse-${randomUUID()}`;
    await launch(stack, caller.headers, projectId, { criteria: softwareCriteria }, key);
    const before = await balance(caller.workspace.id);
    const otherBody = await launch(stack, caller.headers, projectId, { criteria: { ...softwareCriteria, target: 11 } }, key);
    expect([otherBody.status, otherBody.body.error.code]).toEqual([409, 'idempotency_key_reused']);
    const otherProject = await createProject(stack, caller.headers);
    const elsewhere = await launch(stack, caller.headers, otherProject, { criteria: softwareCriteria }, key);
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([409, 'idempotency_key_reused']);
    expect(await balance(caller.workspace.id)).toBe(before);
  });

  it('50 simultaneous identical launches make one search and charge one credit', async () => {
    const fixture = await workspaceWithKey(stack.db, { credits: 5 });
    const project = await createProject(stack, fixture.headers);
    const key = `burst-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 50 }, () => launch(stack, fixture.headers, project, { criteria: softwareCriteria }, key)));
    const ids = new Set(results.map((r) => r.body.data?.id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200 && r.body.data.reused === true)).toHaveLength(49);
    expect(await balance(fixture.workspace.id)).toBe(4);
    expect(await stack.db('searches').where({ project_id: project }).count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('turns a job description into stored criteria shown in the record', async () => {
    const jd = 'We are hiring a Senior Backend Engineer in San Francisco with 5+ years of experience in TypeScript and Kubernetes.';
    const res = await launch(stack, caller.headers, projectId, { jd_text: jd });
    expect(res.status).toBe(201);
    expect(res.body.data.jd_text).toBe(jd);
    expect(res.body.data.criteria).toMatchObject({ metro: 'san-francisco-bay-area', skills: expect.arrayContaining(['TypeScript', 'Kubernetes']) });
    expect(res.body.data.criteria.years_experience.min).toBe(5);
    const done = await waitForSearch(stack, caller.headers, res.body.data.id);
    expect(done.criteria).toEqual(res.body.data.criteria);
  });

  it('lists searches with a bounded brief (its first 500 characters and length); the record keeps all of it', async () => {
    const project = await createProject(stack, caller.headers);
    const jd = `Senior Backend Engineer in Berlin, 5+ years of Go. ${'We value clear writing and careful reviews. '.repeat(200)}`.trim();
    const launched = await launch(stack, caller.headers, project, { jd_text: jd });
    expect(launched.status).toBe(201);
    await waitForSearch(stack, caller.headers, launched.body.data.id);
    const listed = (await stack.request('GET', `/v1/projects/${project}/searches`, { headers: caller.headers })).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0].jd_text).toBeUndefined();
    expect(listed[0]).toMatchObject({ jd_text_excerpt: jd.slice(0, 500), jd_text_length: jd.length });
    const record = (await stack.request('GET', `/v1/searches/${launched.body.data.id}`, { headers: caller.headers })).body.data;
    expect(record.jd_text).toBe(jd);
  });

  it(`refuses a job description over ${BRIEF_MAX_LENGTH.toLocaleString('en-US')} characters with a clear 400, reading nothing`, async () => {
    const jd = `Senior Backend Engineer in Berlin. ${'x'.repeat(BRIEF_MAX_LENGTH)}`;
    const res = await launch(stack, caller.headers, projectId, { jd_text: jd });
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
    expect(res.body.error.message).toContain('jd_text is too long: at most 20,000 characters');
    const atLimit = await launch(stack, caller.headers, projectId, { jd_text: jd.slice(0, BRIEF_MAX_LENGTH) });
    expect(atLimit.status).toBe(201);
  });
});

describe('launch refusals', () => {
  let caller: KeyFixture;
  let projectId: string;
  beforeAll(async () => {
    caller = await workspaceWithKey(stack.db, { credits: 5 });
    projectId = await createProject(stack, caller.headers);
  });
  const post = (body: unknown, headers: Record<string, string>, project = projectId) =>
    stack.request('POST', `/v1/projects/${project}/searches`, { headers: { ...caller.headers, ...headers }, body });
  const expectCode = (res: { status: number; body: any }, status: number, code: string) => expect([res.status, res.body.error?.code]).toEqual([status, code]);

  it('400 idempotency_key_required without a key of 8–160 printable characters', async () => {
    expectCode(await post({ criteria: softwareCriteria }, {}), 400, 'idempotency_key_required');
    expectCode(await post({ criteria: softwareCriteria }, { 'Idempotency-Key': 'short' }), 400, 'idempotency_key_required');
    expectCode(await post({ criteria: softwareCriteria }, { 'Idempotency-Key': 'x'.repeat(161) }), 400, 'idempotency_key_required');
    expect((await post({ criteria: softwareCriteria }, { 'Idempotency-Key': 'k'.repeat(160) })).status).toBe(201);
  });

  it('400 criteria_required without criteria or a 40+ character jd_text', async () => {
    for (const body of [{}, { jd_text: 'too short to read' }, { criteria: null }, undefined]) {
      expectCode(await post(body, { 'Idempotency-Key': `cr-${randomUUID()}` }), 400, 'criteria_required');
    }
  });

  it('400 invalid_criteria listing every problem in the message and details', async () => {
    const res = await post(
      { criteria: { family: 'astronaut', industries: ['Not An Industry'], target: 0, colour: 'red' } },
      { 'Idempotency-Key': `ic-${randomUUID()}` },
    );
    expectCode(res, 400, 'invalid_criteria');
    const fields = res.body.error.details.problems.map((p: { field: string }) => p.field);
    // Fields are named by their path in the body.
    expect(fields).toEqual(expect.arrayContaining(['criteria.family', 'criteria.industries.0', 'criteria.target', 'criteria.colour']));
    for (const field of ['criteria.family', 'criteria.industries.0', 'criteria.target']) expect(res.body.error.message).toContain(field);
  });

  it('launches every brief that names a role or a skill, with what was read and how surely; only a text with nothing usable is 400', async () => {
    const briefs = [
      ['A QA lead for our Warsaw office, Selenium and Cypress', { family: 'qa_testing', metro: 'warsaw', seniority: ['lead'] }],
      ['We need in-house counsel in Paris for commercial contracts', { family: 'legal', metro: 'paris' }],
      ['Head of Engineering / VP Eng for a 40-person team in Sydney', { family: 'software_engineering', metro: 'sydney', seniority: ['director', 'vp'] }],
      ['someone who lays out boards in Altium, schematic capture too, near Munich', { family: 'electrical_engineering', metro: 'munich' }],
    ] as const;
    for (const [jd, expected] of briefs) {
      const res = await post({ jd_text: jd }, { 'Idempotency-Key': `jd-${randomUUID()}` });
      expect([jd, res.status]).toEqual([jd, 201]);
      expect(res.body.data.criteria).toMatchObject(expected);
      for (const field of Object.keys(expected)) expect(res.body.data.jd_confidence[field]).toBeGreaterThan(0);
    }
    const placeOnly = await post({ jd_text: 'Looking for great people in Toronto, please apply today!' }, { 'Idempotency-Key': `jd-${randomUUID()}` });
    expectCode(placeOnly, 400, 'invalid_criteria');
    expect(placeOnly.body.error.message).toContain('names no role, title, skill or industry');
    expect(placeOnly.body.error.message).toContain('it read only: metro');
  });

  it('404 project_not_found for an unknown or foreign project', async () => {
    const other = await workspaceWithKey(stack.db);
    const foreign = await createProject(stack, other.headers);
    expectCode(await post({ criteria: softwareCriteria }, { 'Idempotency-Key': `pn-${randomUUID()}` }, foreign), 404, 'project_not_found');
    expectCode(await post({ criteria: softwareCriteria }, { 'Idempotency-Key': `pn-${randomUUID()}` }, 'nope'), 404, 'project_not_found');
  });

  it('402 plan_required, no_active_plan and shortlist_allocation_exhausted', async () => {
    const noPlan = await workspaceWithKey(stack.db, { plan: null });
    expectCode(await launch(stack, noPlan.headers, await createProject(stack, noPlan.headers), { criteria: softwareCriteria }), 402, 'plan_required');
    const inactive = await workspaceWithKey(stack.db, { workspace: { plan_active: false } });
    expectCode(await launch(stack, inactive.headers, await createProject(stack, inactive.headers), { criteria: softwareCriteria }), 402, 'no_active_plan');
    const broke = await workspaceWithKey(stack.db, { credits: 0 });
    expectCode(
      await launch(stack, broke.headers, await createProject(stack, broke.headers), { criteria: softwareCriteria }),
      402,
      'shortlist_allocation_exhausted',
    );
    // The key draws from its own bucket: contract_pool is empty even though the workspace bucket is not.
    const pooled = await keyFor(stack.db, caller.workspace, { funding: 'contract_pool' });
    expectCode(await launch(stack, pooled.headers, projectId, { criteria: softwareCriteria }), 402, 'shortlist_allocation_exhausted');
    expect(
      await stack.db('searches').whereIn('workspace_id', [noPlan.workspace.id, inactive.workspace.id, broke.workspace.id]).count({ n: '*' }).first(),
    ).toEqual({ n: 0 });
  });

  it('429 concurrent_search_limit with 50 searches waiting, 429 daily_search_limit after 500 launches today', async () => {
    const busy = await workspaceWithKey(stack.db, { credits: 5 });
    const project = await createProject(stack, busy.headers);
    const rows = (status: string, n: number) =>
      Array.from({ length: n }, () => ({
        id: randomUUID(),
        workspace_id: busy.workspace.id,
        project_id: project,
        status,
        criteria: JSON.stringify(softwareCriteria),
        funding_bucket: 'workspace',
      }));
    await stack.db('searches').insert(rows('queued', 50));
    const queued = await launch(stack, busy.headers, project, { criteria: softwareCriteria });
    expectCode(queued, 429, 'concurrent_search_limit');
    expect(Number(queued.headers.get('retry-after'))).toBeGreaterThan(0);

    await stack.db('searches').where({ workspace_id: busy.workspace.id }).update({ status: 'complete' });
    await stack.db('searches').insert(rows('complete', 450));
    const daily = await launch(stack, busy.headers, project, { criteria: softwareCriteria });
    expectCode(daily, 429, 'daily_search_limit');
    expect(await balance(busy.workspace.id)).toBe(5);
  });

  it("uses the plan's concurrent and daily search limits, and a workspace's own concurrency override", async () => {
    expect(await searchLimits(stack.db, { plan: 'growth', max_concurrent_searches: null })).toEqual({ concurrent: 5, daily: 2000 });
    expect(await searchLimits(stack.db, { plan: 'growth', max_concurrent_searches: 7 })).toEqual({ concurrent: 7, daily: 2000 });
    expect(await searchLimits(stack.db, { plan: 'trial', max_concurrent_searches: 0 })).toEqual({ concurrent: 0, daily: 20 });

    const trial = await workspaceWithKey(stack.db, { plan: 'trial', credits: 5 });
    expect(trial.workspace.max_concurrent_searches).toBeNull();
    const project = await createProject(stack, trial.headers);
    const rows = (status: string, n: number) =>
      Array.from({ length: n }, () => ({
        id: randomUUID(),
        workspace_id: trial.workspace.id,
        project_id: project,
        status,
        criteria: JSON.stringify(softwareCriteria),
        funding_bucket: 'workspace',
      }));
    const [running] = await stack.db('searches').insert(rows('running', 1)).returning('id');
    // Trial: one search at once, so this launch waits its turn (search.queued).
    const waiting = await launch(stack, trial.headers, project, { criteria: softwareCriteria });
    expect(waiting.status).toBe(201);
    const queuedEvents = () => stack.db('outbox_events').where({ type: 'search.queued' }).whereRaw(`data->>'search_id' = ?`, [waiting.body.data.id]);
    expect(await queuedEvents()).toHaveLength(1);
    expect((await stack.db('searches').where({ id: waiting.body.data.id }).first()).status).toBe('queued');

    // Trial: 20 launches a UTC day.
    await stack.db('searches').insert(rows('complete', 18));
    const daily = await launch(stack, trial.headers, project, { criteria: softwareCriteria });
    expectCode(daily, 429, 'daily_search_limit');
    expect(daily.body.error.details).toMatchObject({ limit: 20 });

    // The workspace's own override beats the plan's concurrency: the waiting search gets its slot.
    await stack.db('workspaces').where({ id: trial.workspace.id }).update({ max_concurrent_searches: 2 });
    await stack.temporal.client.workflow.getHandle(catalog.search.id(waiting.body.data.id, 1)).signal('slotFreed');
    await waitForSearch(stack, trial.headers, waiting.body.data.id);
    await stack.db('searches').where({ id: running.id }).update({ status: 'complete' });
  });
});
