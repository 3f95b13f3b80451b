import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createDb, type Db } from '../../src/db/knex';
import { freePort, waitFor } from '../../tools/dev/processes';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { request, TEST_RATE_LIMIT_ENV, type TestResponse } from '../support/stack';

/**
 * Requests no schema describes, against a SPAWNED API process so a crash, a hang or a memory
 * blow-up is seen: oversized bodies, absurd nesting, bytes that are not UTF-8, NUL bytes, huge
 * numbers, wrong content types, slow-loris clients and a thousand idle connections. Each must get
 * a clear 4xx or a closed connection, and a normal client must still be served promptly after.
 */

const ROOT = path.resolve(__dirname, '..', '..');
/** Short, so the slow-loris and idle-connection cases finish quickly; production defaults are 10 s / 30 s. */
const HEADERS_TIMEOUT_MS = 2000;
const MB = 1024 * 1024;

let api: ChildProcess;
let apiOutput = '';
let port: number;
let base: string;
let db: Db;
let caller: KeyFixture;
let projectId: string;

const call = (method: string, p: string, opts: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {}) =>
  request(base, method, p, { ...opts, headers: { ...caller.headers, ...opts.headers } });

/** The API process's resident memory in MB, from /proc. */
function rssMb(): number {
  const status = fs.readFileSync(`/proc/${api.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** A normal client is still served, within `ms`, and the process is alive. */
async function expectServedWithin(ms: number): Promise<void> {
  const started = Date.now();
  const res = await call('GET', '/v1/projects');
  expect(res.status).toBe(200);
  expect(Date.now() - started).toBeLessThan(ms);
  expect(api.exitCode).toBeNull();
}

interface RawAnswer {
  /** The status line's code, if a response arrived. */
  status: number | null;
  text: string;
  ms: number;
}

/** Whether `text` holds a whole response (headers and a Content-Length body). */
function complete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
  return length !== null && Buffer.byteLength(text.slice(end + 4), 'latin1') >= Number(length[1]);
}

/**
 * Writes `head` (request line and headers) then `body` in 64 KB pieces on a raw socket, until a
 * whole response has come back, the server closes the connection or `timeoutMs` passes. Writing
 * stops once the answer is in (the server answered early, before reading everything).
 */
function rawExchange(head: string, body: Buffer | null, opts: { chunked?: boolean; timeoutMs?: number } = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(received).toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : null, text, ms: Date.now() - started });
    };
    const timer = setTimeout(finish, opts.timeoutMs ?? 30_000);
    socket.on('data', (d) => {
      received.push(d);
      if (complete(Buffer.concat(received).toString('latin1'))) finish();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', () => undefined); // a reset is reported by the missing answer
    socket.on('connect', async () => {
      socket.write(head);
      if (!body) return;
      for (let offset = 0; offset < body.length && !done && !socket.destroyed; offset += 64 * 1024) {
        const piece = body.subarray(offset, offset + 64 * 1024);
        const ok = socket.write(opts.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
        if (!ok) await new Promise((r) => socket.once('drain', r).once('close', r));
      }
      if (opts.chunked && !done && !socket.destroyed) socket.write('0\r\n\r\n');
    });
  });
}

const postHead = (p: string, headers: Record<string, string | number>) =>
  `POST ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries({ ...caller.headers, 'Content-Type': 'application/json', ...headers })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;

beforeAll(async () => {
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  api = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...TEST_RATE_LIMIT_ENV,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: '10000',
      METRICS_ENABLED: 'false',
      USAGE_COUNTING: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  api.stdout!.on('data', (d) => (apiOutput = (apiOutput + d).slice(-5000)));
  api.stderr!.on('data', (d) => (apiOutput = (apiOutput + d).slice(-5000)));
  db = createDb(process.env.DATABASE_URL!, 2);
  caller = await workspaceWithKey(db, { credits: 100 });
  await waitFor(
    'the spawned API',
    async () => {
      if (api.exitCode !== null) throw new Error(`the API exited (${api.exitCode}): ${apiOutput}`);
      return fetch(`${base}/livez`).then(
        (r) => r.ok,
        () => false,
      );
    },
    90_000,
    200,
  );
  const project = await call('POST', '/v1/projects', { body: { name: 'Hostile inputs' } });
  expect(project.status).toBe(201);
  projectId = project.body.data.id;
}, 120_000);

afterAll(async () => {
  if (api && api.exitCode === null) {
    const exited = new Promise((resolve) => api.once('exit', resolve));
    api.kill('SIGTERM');
    await exited;
  }
  await db?.destroy();
});

afterEach(() => {
  // Whatever a case did, the process must not have died.
  if (api.exitCode !== null) throw new Error(`the API process exited (${api.exitCode}): ${apiOutput}`);
});

describe('oversized bodies', () => {
  it('a body just under 1 MB is read (and refused by the schema); one over it is 413', async () => {
    const name = 'x'.repeat(MB - 20);
    const under = await call('POST', '/v1/projects', { rawBody: JSON.stringify({ name }), headers: { 'Content-Type': 'application/json' } });
    expect([under.status, under.body.error.code]).toEqual([400, 'invalid_name']);
    const over = await call('POST', '/v1/projects', {
      rawBody: JSON.stringify({ name: `${name}${'x'.repeat(100)}` }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect([over.status, over.body.error.code]).toEqual([413, 'payload_too_large']);
  });

  it('20 MB bodies (declared or chunked) are 413 at once, memory bounded', async () => {
    const body = Buffer.alloc(20 * MB, 'a');
    const before = rssMb();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
    try {
      // Five at once: a server that buffered them would grow by 100 MB or more.
      const answers = await Promise.all([
        ...[1, 2, 3].map(() => rawExchange(postHead('/v1/projects', { 'Content-Length': body.length }), body)),
        ...[1, 2].map(() => rawExchange(postHead('/v1/projects', { 'Transfer-Encoding': 'chunked' }), body, { chunked: true })),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(413);
        expect(answer.text).toContain('"payload_too_large"');
        expect(answer.ms).toBeLessThan(15_000);
      }
    } finally {
      clearInterval(sampler);
    }
    process.stdout.write(`hostile-inputs: API RSS ${before.toFixed(0)} MB before five 20 MB uploads, peak ${peak.toFixed(0)} MB\n`);
    expect(peak - before).toBeLessThan(60);
    await expectServedWithin(5000);
  });
});

describe('malformed JSON', () => {
  it('10,000 levels of nesting (objects or arrays) is 400', async () => {
    for (const rawBody of [`{"name":"x","a":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`, `${'['.repeat(10_000)}${']'.repeat(10_000)}`]) {
      const res = await call('POST', '/v1/projects', { rawBody, headers: { 'Content-Type': 'application/json' } });
      expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
    }
    await expectServedWithin(5000);
  });

  it('bytes that are not UTF-8 are 400, not read as replacement characters', async () => {
    for (const bytes of [
      Buffer.from([...Buffer.from('{"name":"Back'), 0xff, 0xfe, ...Buffer.from('end"}')]),
      Buffer.from([...Buffer.from('{"name":"'), 0xc3, ...Buffer.from('"}')]), // a truncated two-byte sequence
      Buffer.from([...Buffer.from('{"name":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')]), // an encoded surrogate
    ]) {
      const answer = await rawExchange(postHead('/v1/projects', { 'Content-Length': bytes.length, Connection: 'close' }), bytes);
      expect(answer.status).toBe(400);
      expect(answer.text).toContain('not valid UTF-8');
    }
    expect((await db('projects').where({ workspace_id: caller.workspace.id })).map((p: { name: string }) => p.name)).toEqual(['Hostile inputs']);
  });

  it('NUL bytes: raw in a string, escaped in a value, in a path or query: all 4xx', async () => {
    const raw = Buffer.from('{"name":"Back\u0000end"}');
    const rawAnswer = await rawExchange(postHead('/v1/projects', { 'Content-Length': raw.length, Connection: 'close' }), raw);
    expect(rawAnswer.status).toBe(400); // JSON does not allow control characters in strings
    const escaped = await call('POST', '/v1/projects', { body: { name: 'Back\u0000end' } });
    expect([escaped.status, escaped.body.error.code]).toEqual([400, 'invalid_name']);
    expect((await call('GET', '/v1/projects/%00')).status).toBe(404);
    // Where the route reads the query, a NUL is refused naming it; where it reads none, it is ignored like the rest.
    const usage = await call('GET', '/v1/usage?from=%00');
    expect([usage.status, usage.body.error.code]).toEqual([400, 'invalid_request']);
    expect((await call('GET', '/v1/projects?limit=%00')).status).toBe(200);
    await expectServedWithin(5000);
  });

  it('huge numbers (1e400, 2^64, -2^64) are 400 naming the field', async () => {
    for (const value of ['1e400', '18446744073709551616', '-18446744073709551616', '1e-400']) {
      const rawBody = `{"criteria":{"family":"software_engineering","read_budget":${value},"target":10}}`;
      const res = await call('POST', `/v1/projects/${projectId}/searches`, {
        rawBody,
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `huge-${value}` },
      });
      expect([value, res.status, res.body.error.code]).toEqual([value, 400, 'invalid_criteria']);
      expect(JSON.stringify(res.body.error.details)).toContain('read_budget');
    }
    for (const query of ['limit=1e400', 'limit=18446744073709551616', 'offset=1e400']) {
      const res = await call('GET', `/v1/projects?${query}`);
      expect([query, res.status < 500]).toEqual([query, true]);
    }
    expect(await db('searches').where({ workspace_id: caller.workspace.id })).toHaveLength(0);
  });
});

describe('content types', () => {
  it('a body that says it is not JSON is 415; a JSON body without a type is read as JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
      const res = await call('POST', '/v1/projects', { rawBody: '{"name":"typed"}', headers: { 'Content-Type': type } });
      expect([type, res.status, res.body.error.code]).toEqual([type, 415, 'unsupported_media_type']);
    }
    const untyped = await rawExchange(
      `POST /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${caller.headers.Authorization}\r\nContent-Length: 16\r\nConnection: close\r\n\r\n`,
      Buffer.from('{"name":"typed"}'),
    );
    expect(untyped.status).toBe(201);
  });
});

describe('slow and idle clients', () => {
  it('slow-loris: a client trickling its headers is cut off after the headers timeout; others are served meanwhile', async () => {
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise<number>((resolve) => {
      const started = Date.now();
      socket.on('close', () => resolve(Date.now() - started));
      socket.on('error', () => undefined);
    });
    socket.write('GET /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickle = setInterval(() => !socket.destroyed && socket.write(`X-Slow-${Math.random().toString(36).slice(2)}: 1\r\n`), 300);
    try {
      await expectServedWithin(5000);
      const ms = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 30_000))]);
      expect(ms).toBeGreaterThan(0); // -1: still open after 30 s
      expect(ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    await expectServedWithin(5000);
  });

  it('1,000 idle connections: other clients are served promptly, memory stays bounded, the idle ones are closed', async () => {
    const before = rssMb();
    const sockets: net.Socket[] = [];
    let refused = '';
    for (let i = 0; i < 1000 && !refused; i++) {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', (err: NodeJS.ErrnoException) => (refused ||= err.code ?? err.message));
      socket.resume(); // so the server's FIN is seen
      sockets.push(socket);
    }
    try {
      await waitFor('the idle connections to open', async () => Boolean(refused) || sockets.every((s) => !s.connecting), 20_000, 50);
      const opened = sockets.filter((s) => !s.connecting && !s.destroyed).length;
      // This process's descriptor limit (ulimit -n) bounds how many it can hold; say so when it did.
      if (refused) process.stdout.write(`hostile-inputs: opened ${opened} idle connections before ${refused}\n`);
      expect(opened).toBeGreaterThanOrEqual(refused ? 200 : 1000);
      await expectServedWithin(5000);
      const sequential = await Promise.all([1, 2, 3, 4, 5].map(() => call('GET', '/v1/projects')));
      expect(sequential.map((r: TestResponse) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const during = rssMb();
      process.stdout.write(`hostile-inputs: API RSS ${before.toFixed(0)} MB before ${opened} idle connections, ${during.toFixed(0)} MB with them\n`);
      expect(during - before).toBeLessThan(100);
      // Connections that never send a request are closed by the headers timeout.
      await waitFor('the server to close the idle connections', async () => sockets.every((s) => s.destroyed), 30_000, 200);
    } finally {
      for (const s of sockets) s.destroy();
    }
    await expectServedWithin(5000);
  }, 60_000);
});
