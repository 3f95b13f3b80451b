import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * The shared part of the vendor fakes: a real HTTP server on 127.0.0.1 with failure switches and
 * counters. Each vendor fake supplies `route` (its documented wire format) and `rejects` (its way
 * of refusing a key).
 *
 * Switches (`mode`): `ok`; `slow` (answers after `delayMs`); `rate-limited` (429 with Retry-After
 * `retryAfter`); `error` (500); `malformed` (200 with a body that is not JSON); `hang` (never
 * answers; the client's timeout ends it). `failAfter` (when set): the first N requests since the
 * last reset are answered as the mode says, every later one with a 500 (a vendor dying mid-run).
 */
export type FakeMode = 'ok' | 'slow' | 'rate-limited' | 'error' | 'malformed' | 'hang';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeAnswer {
  status: number;
  body: unknown;
}

export interface VendorServer {
  url: string;
  mode: FakeMode;
  delayMs: number;
  retryAfter: number;
  failAfter: number | null;
  /** Every request received, in arrival order (also those answered with a failure). */
  requests: FakeRequest[];
  /** Requests being answered right now, and the most at once since the last reset. */
  inFlight: number;
  maxInFlight: number;
  /** Arrival times (ms) of the requests, for rate assertions. */
  arrivals: number[];
  calls(pathSuffix?: string): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startVendorServer(opts: {
  route: (req: FakeRequest) => FakeAnswer;
  /** A refusal when the request does not carry the accepted key, else null. */
  rejects: (req: FakeRequest) => FakeAnswer | null;
  errorBody: (status: number, message: string) => unknown;
}): Promise<VendorServer> {
  const sockets = new Set<Socket>();
  const fake: VendorServer = {
    url: '',
    mode: 'ok',
    delayMs: 300,
    retryAfter: 7,
    failAfter: null,
    requests: [],
    inFlight: 0,
    maxInFlight: 0,
    arrivals: [],
    calls: (suffix) => fake.requests.filter((r) => !suffix || r.path.endsWith(suffix)).length,
    reset() {
      fake.mode = 'ok';
      fake.delayMs = 300;
      fake.retryAfter = 7;
      fake.failAfter = null;
      fake.requests.length = 0;
      fake.arrivals.length = 0;
      fake.maxInFlight = fake.inFlight;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const request: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body };
      fake.requests.push(request);
      fake.arrivals.push(Date.now());
      fake.inFlight++;
      fake.maxInFlight = Math.max(fake.maxInFlight, fake.inFlight);
      let done = false;
      const finish = () => {
        if (!done) fake.inFlight--;
        done = true;
      };
      res.on('close', finish);
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      const mode = fake.failAfter !== null && fake.requests.length > fake.failAfter ? 'error' : fake.mode;
      if (mode === 'hang') return;
      const answer = () => {
        if (mode === 'rate-limited') return send(429, opts.errorBody(429, 'Rate limit exceeded'), { 'retry-after': String(fake.retryAfter) });
        if (mode === 'error') return send(500, opts.errorBody(500, 'Internal server error'));
        if (mode === 'malformed') return send(200, '{"data": [unterminated');
        const refusal = opts.rejects(request);
        const { status, body: out } = refusal ?? opts.route(request);
        send(status, out);
      };
      // Every answer takes a moment (as over a network), so concurrent calls overlap at the fake.
      setTimeout(answer, mode === 'slow' ? fake.delayMs : 25);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** Tokens of a text for the fakes' simple matching (lower case, letters and digits). */
export const tokens = (s: unknown): string[] => (typeof s === 'string' ? (s.toLowerCase().match(/[\p{L}\p{N}+#]+/gu) ?? []) : []);
