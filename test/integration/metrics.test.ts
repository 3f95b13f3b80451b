import { workspaceWithKey } from '../support/fixtures';
import { createProject, launch, softwareCriteria, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text exposition → samples (comments and HELP/TYPE lines skipped). */
function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
      return { name: m[1], labels, value: Number(m[3]) };
    });
}

/** The sum of a metric's samples whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
}

async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

describe('/metrics with metrics on (the default)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.stop());

  it('counts requests by route template, a 429, and the activities and workflows of a search', async () => {
    const before = await scrape(`${stack.url}/metrics`);
    const workerBefore = await scrape(`${stack.worker!.metricsUrl}/metrics`);
    const { headers } = await workspaceWithKey(stack.db, { credits: 100 });
    const limited = await workspaceWithKey(stack.db, { keyRateLimit: 1 });

    const projectId = await createProject(stack, headers, 'metrics');
    const launched = await launch(stack, headers, projectId, { criteria: softwareCriteria });
    expect(launched.status).toBe(201);
    const search = await waitForSearch(stack, headers, launched.body.data.id);
    expect(search.status).toBe('complete');
    for (let i = 0; i < 3; i++) expect((await stack.request('GET', `/v1/searches/${search.id}/people?limit=5`, { headers })).status).toBe(200);
    const statuses = [(await stack.request('GET', '/v1/projects', { headers: limited.headers })).status];
    statuses.push((await stack.request('GET', '/v1/projects', { headers: limited.headers })).status);
    expect(statuses).toEqual([200, 429]);
    expect((await stack.request('GET', '/v1/no-such-thing-12345')).status).toBe(404);

    const after = await scrape(`${stack.url}/metrics`);
    const moved = (labels: Record<string, string>) => total(after, 'http_requests_total', labels) - total(before, 'http_requests_total', labels);
    expect(moved({ method: 'GET', route: '/v1/searches/:searchId/people', status: '200' })).toBe(3);
    expect(moved({ method: 'POST', route: '/v1/projects/:projectId/searches', status: '201' })).toBe(1);
    expect(moved({ method: 'GET', route: '/v1/projects', status: '429' })).toBe(1);
    // The raw URL of an unknown path never becomes a label value.
    expect(moved({ route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(after.some((s) => s.labels.route?.includes('no-such-thing'))).toBe(false);
    expect(after.some((s) => s.labels.route?.includes(search.id))).toBe(false);

    const latencyCount = (samples: Sample[]) =>
      total(samples, 'http_request_duration_seconds_count', { route: '/v1/searches/:searchId/people', status: '200' });
    expect(latencyCount(after) - latencyCount(before)).toBe(3);
    expect(total(after, 'rate_limit_refusals_total', { route: '/v1/projects' }) - total(before, 'rate_limit_refusals_total', { route: '/v1/projects' })).toBe(
      1,
    );
    expect(after.filter((s) => s.name === 'db_pool_connections').map((s) => s.labels.state)).toEqual(['used', 'free', 'pending']);
    expect(total(after, 'db_pool_connections', { state: 'free' }) + total(after, 'db_pool_connections', { state: 'used' })).toBeGreaterThan(0);

    const workerAfter = await scrape(`${stack.worker!.metricsUrl}/metrics`);
    const activityMoved = (activity: string) =>
      total(workerAfter, 'activity_executions_total', { activity, outcome: 'completed' }) -
      total(workerBefore, 'activity_executions_total', { activity, outcome: 'completed' });
    expect(activityMoved('runSearchPage')).toBeGreaterThanOrEqual(1);
    expect(activityMoved('completeSearchPass')).toBeGreaterThanOrEqual(1);
    // The Temporal SDK's own metrics come through the same scrape.
    const completedWorkflows = (samples: Sample[]) => total(samples, 'temporal_workflow_completed_total');
    expect(completedWorkflows(workerAfter)).toBeGreaterThan(completedWorkflows(workerBefore));
    // A pass's steps are local activities.
    expect(total(workerAfter, 'temporal_local_activity_execution_latency_count')).toBeGreaterThan(0);
  });

  it('is served without an API key, and a key is not needed for the probes either', async () => {
    const res = await stack.request('GET', '/metrics', { headers: { Authorization: 'Bearer sk_test_invalid' } });
    expect(res.status).toBe(200);
    expect((await stack.request('GET', '/livez')).body).toEqual({ ok: true });
    expect(await stack.request('GET', '/readyz')).toMatchObject({ status: 200, body: { ok: true, checks: { database: 'ok', temporal: 'ok' } } });
  });

  it('the worker port answers /livez and /readyz', async () => {
    const live = await fetch(`${stack.worker!.metricsUrl}/livez`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${stack.worker!.metricsUrl}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { ok: true, checks: { workers: 'ok' } }]);
  });
});

describe('metrics configuration', () => {
  it('METRICS_PORT serves /metrics on its own port instead of the API port', async () => {
    const stack = await startTestStack({ worker: false, env: { METRICS_PORT: '0' } });
    try {
      expect(stack.api.metricsUrl).toBeDefined();
      expect(stack.api.metricsUrl).not.toBe(stack.url);
      await stack.request('GET', '/v1/health');
      const samples = await scrape(`${stack.api.metricsUrl}/metrics`);
      expect(total(samples, 'http_requests_total', { route: '/v1/health' })).toBeGreaterThanOrEqual(1);
      expect((await stack.request('GET', '/metrics')).status).toBe(404);
    } finally {
      await stack.stop();
    }
  });

  it('METRICS_ENABLED=false turns /metrics off on the API and the worker', async () => {
    const stack = await startTestStack({ env: { METRICS_ENABLED: 'false' } });
    try {
      expect((await stack.request('GET', '/metrics')).status).toBe(404);
      expect(stack.api.metricsUrl).toBeUndefined();
      expect(stack.worker!.metricsUrl).toBeUndefined();
      expect((await stack.request('GET', '/livez')).status).toBe(200);
    } finally {
      await stack.stop();
    }
  });
});
