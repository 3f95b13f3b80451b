import { z } from 'zod';
import { createApp } from '../../api/app';
import { sendData } from '../../api/respond';
import { defineRoute } from '../../api/route-def';
import { healthRoutes } from '../../api/routes/health.routes';
import { createDb } from '../../src/db/knex';
import { createLogger } from '../../src/logger';
import { startTestStack, request, testConfig, type TestStack } from '../support/stack';
import http from 'node:http';

describe('GET /v1/health and the round trip through Temporal', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.stop());

  it('answers without a key with both checks ok', async () => {
    const res = await stack.request('GET', '/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { ok: true, checks: { database: 'ok', temporal: 'ok' } }, meta: { request_id: expect.stringMatching(/^req_/) } });
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.request_id);
  });

  it('probes the worker end to end: workflow started by the API, activity writes Postgres, API reads it', async () => {
    const before = new Date();
    const res = await stack.request('GET', '/v1/health?worker=true');
    expect(res.status).toBe(200);
    expect(res.body.data.checks).toEqual({ database: 'ok', temporal: 'ok', worker: 'ok' });

    // Other test files probe the same shared stack at the same time, so the newest probe may be
    // theirs and still running: this request's is among those requested since it began, completed.
    const probe = await stack.db('health_probes').where('requested_at', '>=', before).whereNotNull('completed_at').orderBy('requested_at', 'asc').first();
    expect(probe?.completed_at).toBeInstanceOf(Date);
    expect(probe.worker_identity).toMatch(/:\d+$/);
    // The workflow is a real Temporal execution, visible to `temporal workflow list`.
    const description = await stack.temporal.client.workflow.getHandle(`health-probe-${probe.id}`).describe();
    expect(description.type).toBe('healthProbeWorkflow');
    expect(description.status.name).toBe('COMPLETED');
    expect(description.taskQueue).toBe(stack.config.temporal.taskQueue);
  });

  it('tells browsers not to sniff any answer: JSON, errors, pages, the app, probes, CSV and metrics', async () => {
    for (const [method, path] of [
      ['GET', '/v1/health'],
      ['GET', '/v1/nope'],
      ['DELETE', '/v1/health'],
      ['GET', '/v1/projects'],
      ['GET', '/livez'],
      ['GET', '/readyz'],
      ['GET', '/metrics'],
      ['GET', '/docs'],
      ['GET', '/v1/openapi.json'],
      ['GET', '/share/not-a-token'],
      ['GET', '/api/shares/not-a-token'],
      ['GET', '/api/me'],
      ['GET', '/app/'],
      ['GET', '/elsewhere'],
    ] as const) {
      const res = await fetch(`${stack.url}${path}`, { method });
      expect([method, path, res.headers.get('x-content-type-options')]).toEqual([method, path, 'nosniff']);
    }
  });

  it('echoes a valid caller-sent X-Request-Id and replaces an invalid one', async () => {
    const echoed = await stack.request('GET', '/v1/health', { headers: { 'X-Request-Id': 'client-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-123');
    expect(echoed.body.meta.request_id).toBe('client-123');

    const tooLong = await stack.request('GET', '/v1/health', { headers: { 'X-Request-Id': 'x'.repeat(129) } });
    expect(tooLong.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('answers unknown routes with 404 not_found in the error envelope', async () => {
    const res = await stack.request('GET', '/v1/nope', { headers: { 'X-Request-Id': 'rid-404' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: { code: 'not_found', message: expect.any(String), details: null, request_id: 'rid-404' },
      meta: { request_id: 'rid-404', correlation_id: 'rid-404' },
    });
  });

  it('answers a wrong method with 405 method_not_allowed', async () => {
    const res = await stack.request('DELETE', '/v1/health');
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('method_not_allowed');
  });
});

describe('request handling middleware', () => {
  let server: http.Server;
  let url: string;
  const config = testConfig();
  const db = createDb(config.databaseUrl, 2);
  beforeAll(async () => {
    const deps = { config, db, temporal: {} as never, logger: createLogger('silent', 'test') };
    const echo = [
      defineRoute({
        name: 'echo',
        method: 'POST',
        path: '/echo/{id}',
        auth: 'none',
        cost: 'none',
        costLine: 'Free.',
        summary: 'test route',
        proposable: false,
        tag: 'Test',
        body: z.looseObject({}),
        response: { kind: 'json', status: 200, data: z.unknown(), description: 'the request' },
        async handler(ctx, { params, body }) {
          sendData(ctx, { id: params.id, body });
        },
      }),
      defineRoute({
        name: 'boom',
        method: 'GET',
        path: '/boom',
        auth: 'none',
        cost: 'none',
        costLine: 'Free.',
        summary: 'test route',
        proposable: false,
        tag: 'Test',
        response: { kind: 'json', status: 200, data: z.unknown(), description: 'never' },
        async handler() {
          throw new Error('secret internal detail');
        },
      }),
    ];
    server = http.createServer(createApp(deps, [...healthRoutes, ...echo]).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await db.destroy();
  });

  it('parses JSON bodies', async () => {
    const res = await request(url, 'POST', '/v1/echo/7', { body: { a: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: '7', body: { a: 1 } });
  });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const res = await request(url, 'POST', '/v1/echo/7', { rawBody: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toMatch(/Malformed JSON/);
    expect(res.body.meta.correlation_id).toBe(res.body.meta.request_id);
  });

  it('answers a body of only whitespace as malformed JSON too, not as no body (found by the fuzz run: "\\n" was accepted)', async () => {
    for (const rawBody of ['\n', ' \t\r\n']) {
      const res = await request(url, 'POST', '/v1/echo/7', { rawBody, headers: { 'content-type': 'application/json' } });
      expect([JSON.stringify(rawBody), res.status, res.body.error?.code]).toEqual([JSON.stringify(rawBody), 400, 'invalid_request']);
    }
    // No bytes at all is no body.
    const empty = await request(url, 'POST', '/v1/echo/7', { rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(200);
  });

  it('hides internals of unexpected errors behind 500 internal_error', async () => {
    const res = await request(url, 'GET', '/v1/boom');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('internal_error');
    expect(res.text).not.toContain('secret internal detail');
  });
});

describe('worker probe without a worker', () => {
  it('reports the worker check as failing with 503', async () => {
    const stack = await startTestStack({ worker: false });
    try {
      const res = await stack.request('GET', '/v1/health?worker=true');
      expect(res.status).toBe(503);
      expect(res.body.data).toEqual({ ok: false, checks: { database: 'ok', temporal: 'ok', worker: 'error' } });
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await stack.stop();
    }
  });
});
