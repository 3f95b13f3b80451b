import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { loadConfig } from '../../src/config';
import { createDb, type Db } from '../../src/db/knex';
import { freePort, waitFor } from '../../tools/dev/processes';
import { createTemporal, type Temporal } from '../../src/temporal/client';
import { catalog } from '../../src/temporal/catalog';
import { PDL_GOOD_KEY, PDL_PEOPLE, startPdlFake, type PdlFake } from '../fakes/pdl-fake';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { makeTestCert, startHttpsReceiver, type HttpsReceiver, type TestCert } from '../support/https-receiver';
import { request, TEST_RATE_LIMIT_ENV, type RequestOptions } from '../support/stack';

/**
 * Traces end to end, read back from the real Zipkin the test bootstrap runs: the API and the
 * worker as the production entry points start them (child processes, so tracing instruments http
 * and pg before they load), TRACING=on with a sample ratio of 0, so the only traces recorded are
 * those a caller asked for with a sampled `traceparent` (parent-based sampling), and a local HTTPS
 * webhook receiver and People Data Labs fake for the outgoing calls.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const ZIPKIN = process.env.TEST_ZIPKIN_URL;

interface ZipkinSpan {
  traceId: string;
  id: string;
  parentId?: string;
  name: string;
  kind?: 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  localEndpoint?: { serviceName?: string };
  tags?: Record<string, string>;
}

type LogLine = Record<string, unknown> & { msg?: string; request_id?: string; trace_id?: string; workflowId?: string };

let db: Db;
let temporal: Temporal;
let cert: TestCert;
let receiver: HttpsReceiver;
let pdl: PdlFake;
let api: ChildProcess;
let worker: ChildProcess;
let baseUrl: string;
const apiLog: LogLine[] = [];
const workerLog: LogLine[] = [];
let fx: KeyFixture;

/** Each JSON line a child writes, kept for the log assertions. */
function collectLog(child: ChildProcess, into: LogLine[]) {
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      into.push(JSON.parse(line) as LogLine);
    } catch {
      // not a log line
    }
  });
  child.stderr!.resume();
}

function spawnEntry(entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

const call = (method: string, urlPath: string, opts: RequestOptions = {}) =>
  request(baseUrl, method, urlPath, { ...opts, headers: { ...fx.headers, ...opts.headers } });

/** A caller's sampled W3C trace context: the trace the API must continue. */
function callerTrace() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

async function zipkinTrace(traceId: string): Promise<ZipkinSpan[]> {
  const res = await fetch(`${ZIPKIN}/api/v2/trace/${traceId}`);
  return res.status === 404 ? [] : ((await res.json()) as ZipkinSpan[]);
}

/** Waits until the trace holds what `complete` asks for (spans reach Zipkin a second or so after they end). */
async function waitForTrace(traceId: string, complete: (spans: ZipkinSpan[]) => boolean, timeoutMs = 90_000): Promise<ZipkinSpan[]> {
  let spans: ZipkinSpan[] = [];
  await waitFor(
    `trace ${traceId} in Zipkin`,
    async () => {
      spans = await zipkinTrace(traceId);
      return complete(spans);
    },
    timeoutMs,
    500,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; it holds: ${spans.map((s) => `${s.localEndpoint?.serviceName}/${s.name}`).join(', ')}`);
  });
  return spans;
}

const named = (spans: ZipkinSpan[], name: string) => spans.filter((s) => s.name === name.toLowerCase());
const childrenOf = (spans: ZipkinSpan[], parent: ZipkinSpan) => spans.filter((s) => s.parentId === parent.id);
const isSql = (s: ZipkinSpan) => s.tags?.['db.system'] === 'postgresql' && !!s.tags?.['db.statement'];
/** An outgoing HTTP call: a client span that is not Postgres (a statement, or a pool opening a connection: pg.connect). */
const isHttpCall = (s: ZipkinSpan) => s.kind === 'CLIENT' && s.tags?.['db.system'] !== 'postgresql';

beforeAll(async () => {
  if (!ZIPKIN) throw new Error('No Zipkin: `npm test` starts one when Java 17+ is installed and the jar could be fetched (see its [bootstrap] lines).');
  db = createDb(process.env.DATABASE_URL!, 4);
  cert = makeTestCert();
  receiver = await startHttpsReceiver(cert);
  pdl = await startPdlFake();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...TEST_RATE_LIMIT_ENV,
    HOST: '127.0.0.1',
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    TRACING: 'on',
    TRACING_ZIPKIN_URL: `${ZIPKIN}/api/v2/spans`,
    // Nothing starts a trace by itself: what gets recorded is what a sampled caller continues.
    TRACING_SAMPLE_RATIO: '0',
    WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8',
  };
  temporal = createTemporal(loadConfig(env));
  api = spawnEntry('api/server.ts', { ...env, PORT: String(port), LOG_LEVEL: 'info', PEOPLEDATALABS_BASE_URL: pdl.url, PEOPLEDATALABS_API_KEY: PDL_GOOD_KEY });
  // debug: the Temporal SDK's own activity lines too. The API creates the outbox sweep Schedule with the webhook.
  worker = spawnEntry('activities/worker.ts', { ...env, LOG_LEVEL: 'debug', NODE_EXTRA_CA_CERTS: cert.certFile, SWEEP_SCHEDULES_ON_START: 'false' });
  collectLog(api, apiLog);
  collectLog(worker, workerLog);
  await waitFor('the traced API and worker', async () => (await fetch(`${baseUrl}/v1/health?worker=true`).catch(() => null))?.status === 200, 150_000, 500);
  fx = await workspaceWithKey(db);
}, 200_000);

afterAll(async () => {
  api?.kill('SIGKILL');
  worker?.kill('SIGKILL');
  await temporal?.close();
  await receiver?.close();
  await pdl?.close();
  await db?.destroy();
});

describe('traces', () => {
  it('follow a launch from the HTTP request through Temporal, the activities and their SQL to the webhook POSTs of its events', async () => {
    const hookPath = `/hooks/${randomUUID()}`;
    const hook = await call('POST', '/v1/webhooks', { body: { url: `${receiver.origin}${hookPath}` } });
    expect(hook.status).toBe(201);
    const project = await call('POST', '/v1/projects', { body: { name: 'Traced' } });
    expect(project.status).toBe(201);

    const caller = callerTrace();
    const launched = await call('POST', `/v1/projects/${project.body.data.id}/searches`, {
      headers: { 'Idempotency-Key': `trace-${randomUUID()}`, traceparent: caller.traceparent },
      body: { criteria: { family: 'software_engineering', mode: 'database_only', read_budget: 30, target: 5, shortlist_threshold: 50 } },
    });
    expect(launched.status).toBe(201);
    const searchId: string = launched.body.data.id;
    const requestId = launched.headers.get('x-request-id')!;
    await waitFor('the search to complete', async () => (await call('GET', `/v1/searches/${searchId}`)).body.data.status === 'complete', 90_000, 250);
    await waitFor('the completion webhook', async () => receiver.received.some((r) => r.path === hookPath && r.json?.type === 'search.completed'), 60_000, 100);

    const spans = await waitForTrace(
      caller.traceId,
      (s) =>
        named(s, 'RunWorkflow:searchWorkflow').length === 1 &&
        named(s, 'RunActivity:completeSearchPass').length > 0 &&
        // search.queued, search.started, search.completed (and shortlist.changed): each a delivery in this trace.
        named(s, 'RunWorkflow:webhookDeliveryWorkflow').length >= 3 &&
        s.filter((x) => x.kind === 'CLIENT' && x.tags?.['http.status_code'] === '200').length >= 3,
    );
    const service = (s: ZipkinSpan) => s.localEndpoint?.serviceName;

    // One trace, one tree: the API's span continues the caller's, every other span has its parent in the trace.
    const ids = new Set(spans.map((s) => s.id));
    const [root, ...others] = spans.filter((s) => s.parentId === caller.spanId);
    expect(others).toEqual([]);
    expect(spans.filter((s) => s !== root && !ids.has(s.parentId!)).map((s) => s.name)).toEqual([]);

    // The request: route template, status and request id.
    expect(root).toMatchObject({
      kind: 'SERVER',
      name: 'post /v1/projects/:projectid/searches',
      localEndpoint: { serviceName: 'candidate-sourcing-api' },
      tags: expect.objectContaining({ 'http.route': '/v1/projects/:projectId/searches', 'http.status_code': '201', request_id: requestId }),
    });
    expect(childrenOf(spans, root).filter(isSql).length).toBeGreaterThan(0); // the launch transaction

    // Temporal: the start (API), the workflow's run and each activity (worker), their SQL under them.
    const [start] = named(spans, 'StartWorkflow:searchWorkflow');
    expect(service(start)).toBe('candidate-sourcing-api');
    expect(start.tags?.temporalWorkflowId).toBe(catalog.search.id(searchId, 1));
    const [run] = named(spans, 'RunWorkflow:searchWorkflow');
    expect(run.parentId).toBe(start.id);
    expect(service(run)).toBe('candidate-sourcing-worker');
    const activities = spans.filter((s) => s.name.startsWith('runactivity:') && service(s) === 'candidate-sourcing-worker');
    expect(activities.map((s) => s.name)).toEqual(expect.arrayContaining(['runactivity:runsearchpage', 'runactivity:completesearchpass']));
    for (const name of ['runactivity:runsearchpage', 'runactivity:completesearchpass'])
      expect(named(spans, name).some((a) => childrenOf(spans, a).some(isSql))).toBe(true);

    // The webhook deliveries of the launch's events: workflow, attempt (a local activity), the POST: host and status only.
    const attempts = named(spans, 'RunActivity:attemptWebhookDelivery');
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    const posts = attempts.flatMap((a) => childrenOf(spans, a)).filter(isHttpCall);
    expect(posts.map((s) => s.name)).toEqual(attempts.map(() => 'post 127.0.0.1')); // one POST per attempt
    for (const post of posts) {
      expect(post).toMatchObject({
        name: 'post 127.0.0.1',
        tags: expect.objectContaining({ 'http.status_code': '200', 'net.peer.name': '127.0.0.1', 'http.url': receiver.origin, 'http.target': '[redacted]' }),
      });
    }
    // Never the endpoint's path, its secret or the body.
    const tagText = JSON.stringify(spans.map((s) => s.tags));
    expect(tagText).not.toContain(hookPath);
    expect(tagText).not.toContain(hook.body.data.secret);
    expect(tagText).not.toContain('api_version'); // a field of every delivery's body

    // Support can go from the workflow to the trace: its memo carries the trace id.
    const description = await temporal.client.workflow.getHandle(catalog.search.id(searchId, 1)).describe();
    expect(description.memo?.trace_id).toBe(caller.traceId);

    // And from a log line to the trace: the request's lines and the activities' lines carry it.
    const requestLines = apiLog.filter((l) => l.request_id === requestId);
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines.filter((l) => l.trace_id !== caller.traceId)).toEqual([]);
    // The SDK's lines written after an activity ran (its 'Activity started' comes before the span exists).
    const activityLines = workerLog.filter((l) => l.msg === 'Activity completed' && String(l.workflowId ?? '').startsWith(`search-${searchId}`));
    expect(activityLines.length).toBeGreaterThan(0);
    expect(activityLines.filter((l) => l.trace_id !== caller.traceId)).toEqual([]);
  }, 240_000);

  it('record provider calls with their host and status, never a query string or a key', async () => {
    const caller = callerTrace();
    const found = await call('POST', '/v1/data/people/search', {
      headers: { traceparent: caller.traceparent },
      body: { search: 'backend engineer', limit: 2 },
    });
    expect(found.status).toBe(200);
    expect(found.body.data.source).toBe('peopledatalabs');
    // An enrichment: GET /v5/person/enrich?pdl_id=… (an id in the query string, dropped from the span).
    const read = await call('GET', `/v1/data/people/${PDL_PEOPLE[0].id}`, { headers: { traceparent: caller.traceparent } });
    expect(read.status).toBe(200);

    const pdlHost = new URL(pdl.url).host;
    // The request's own span is exported when the response has gone, after its calls': wait for both.
    const spans = await waitForTrace(caller.traceId, (s) => {
      const httpCalls = s.filter(isHttpCall);
      return httpCalls.length >= 2 && httpCalls.every((c) => s.some((p) => p.id === c.parentId));
    });
    const calls = spans.filter(isHttpCall);
    expect(calls.map((s) => s.name).sort()).toEqual([`get ${pdlHost}`, `post ${pdlHost}`]);
    for (const c of calls) {
      expect(c.tags).toMatchObject({ 'server.address': '127.0.0.1', 'http.response.status_code': '200' });
      expect(c.tags?.['url.full']).toMatch(new RegExp(`^${pdl.url}/v5/person/(search|enrich)$`));
      // Each call under the request that made it.
      expect(spans.find((s) => s.id === c.parentId)?.kind).toBe('SERVER');
    }
    expect(JSON.stringify(spans)).not.toContain(PDL_GOOD_KEY);
  }, 120_000);

  it('does not record what nobody sampled (ratio 0, no traceparent), yet logs the request with a trace id', async () => {
    const caller = callerTrace();
    // Recorded: a sampled caller. Not recorded: the same call without one, made first.
    const unsampled = await call('GET', '/v1/projects');
    const sampled = await call('GET', '/v1/projects', { headers: { traceparent: caller.traceparent } });
    await waitForTrace(caller.traceId, (s) => s.length > 0);
    const unsampledId = unsampled.headers.get('x-request-id')!;
    const traces = await (
      await fetch(`${ZIPKIN}/api/v2/traces?serviceName=candidate-sourcing-api&annotationQuery=${encodeURIComponent(`request_id=${unsampledId}`)}&limit=10`)
    ).json();
    expect(traces).toEqual([]);
    const line = apiLog.find((l) => l.request_id === unsampledId && l.msg === 'request');
    expect(line?.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(line?.trace_flags).toBe('00');
    expect(apiLog.find((l) => l.request_id === sampled.headers.get('x-request-id') && l.msg === 'request')?.trace_flags).toBe('01');
  }, 60_000);
});
