import net from 'node:net';
import { postWebhook } from '../../src/webhooks/sender';
import type { Resolver } from '../../src/webhooks/ssrf';
import { makeTestCert, selfSignedCert, startHttpsReceiver, type HttpsReceiver, type TestCert } from '../support/https-receiver';

let cert: TestCert;
let receiver: HttpsReceiver;
let answers: Record<string, string> = {};
const resolver: Resolver = async (host) => {
  if (!answers[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return [{ address: answers[host], family: 4 }];
};
const opts = () => ({ policy: { allowedCidrs: ['127.0.0.0/8'], resolver }, ca: cert.ca });

beforeAll(async () => {
  cert = makeTestCert();
  receiver = await startHttpsReceiver(cert);
});
afterAll(() => receiver.close());
beforeEach(() => {
  answers = { 'hooks.example.test': '127.0.0.1' };
  receiver.respond(() => ({ status: 200, body: 'thanks' }));
});

describe('postWebhook', () => {
  it('posts the body to the pinned checked address, with the hostname kept for SNI and Host', async () => {
    const result = await postWebhook(
      `https://hooks.example.test:${receiver.port}/pinned?x=1`,
      '{"a":1}',
      { 'Content-Type': 'application/json', 'X-Test': 'yes' },
      opts(),
    );
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null, excerpt: 'thanks' });
    const [req] = await receiver.waitFor('/pinned?x=1', 1);
    expect(req.headers.host).toBe(`hooks.example.test:${receiver.port}`);
    expect(req.servername).toBe('hooks.example.test');
    expect(req.headers['x-test']).toBe('yes');
    expect(req.raw.toString()).toBe('{"a":1}');
  });

  it('records a non-2xx answer with a response excerpt of at most 2 KB', async () => {
    receiver.respond(() => ({ status: 500, body: 'é'.repeat(3000) }));
    const result = await postWebhook(`${receiver.origin}/fail`, '{}', {}, opts());
    expect(result).toMatchObject({ ok: false, statusCode: 500, error: 'endpoint answered 500' });
    expect(Buffer.byteLength(result.excerpt!)).toBeLessThanOrEqual(2048);
    expect(result.excerpt!.length).toBeGreaterThan(500);
  });

  it('never follows a redirect, even one to a metadata address', async () => {
    receiver.respond(() => ({ status: 302, headers: { Location: 'https://169.254.169.254/latest/meta-data/' } }));
    const result = await postWebhook(`${receiver.origin}/redirect`, '{}', {}, opts());
    expect(result).toMatchObject({ ok: false, statusCode: 302 });
    expect(result.error).toMatch(/redirect not followed.*169\.254\.169\.254/);
    expect(receiver.received.filter((r) => r.path === '/redirect')).toHaveLength(1);
  });

  it('gives up after the answer time', async () => {
    receiver.respond(() => ({ status: 200, delayMs: 3000 }));
    const result = await postWebhook(`${receiver.origin}/slow`, '{}', {}, { ...opts(), timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'timeout: no answer within 300 ms' });
    expect(result.durationMs).toBeLessThan(1500);
  });

  it('records a refused connection and an untrusted certificate', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    expect(await postWebhook(`https://127.0.0.1:${closed}/`, '{}', {}, opts())).toMatchObject({ ok: false, error: 'connection refused: ECONNREFUSED' });
    // A certificate no CA of this process vouches for (the run's CA is trusted by every process).
    const stranger = await startHttpsReceiver(selfSignedCert());
    try {
      const untrusted = await postWebhook(`${stranger.origin}/tls`, '{}', {}, { policy: opts().policy });
      expect(untrusted.ok).toBe(false);
      expect(untrusted.error).toMatch(/^tls error/);
    } finally {
      await stranger.close();
    }
  });

  it('checks DNS again at every attempt: a name now resolving to a private address is refused unsent', async () => {
    answers['hooks.example.test'] = '10.1.2.3';
    const before = receiver.received.length;
    const result = await postWebhook(`https://hooks.example.test:${receiver.port}/rebound`, '{}', {}, opts());
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'refused: private_address (10.1.2.3)' });
    const literal = await postWebhook('https://169.254.169.254/latest', '{}', {}, opts());
    expect(literal.error).toBe('refused: link_local_address (169.254.169.254)');
    expect(receiver.received.length).toBe(before);
  });

  it('keeps the connection to a checked address alive, and never reuses it for another address', async () => {
    const url = `https://hooks.example.test:${receiver.port}/kept`;
    expect((await postWebhook(url, '{}', {}, opts())).ok).toBe(true);
    expect((await postWebhook(url, '{}', {}, opts())).ok).toBe(true);
    const [first, second] = await receiver.waitFor('/kept', 2);
    expect(second.remotePort).toBe(first.remotePort);
    // The name now resolves to another (allowed) address where nothing listens: a new, refused
    // connection, not the pooled one to 127.0.0.1.
    answers['hooks.example.test'] = '127.0.0.2';
    expect(await postWebhook(url, '{}', {}, opts())).toMatchObject({ ok: false, error: 'connection refused: ECONNREFUSED' });
    expect(receiver.received.filter((r) => r.path === '/kept')).toHaveLength(2);
  });

  it('retries once on a fresh connection when a kept-alive one was closed under it', async () => {
    const served = new Set<number | undefined>();
    // Every connection answers its first request and drops at the second: a reused one fails.
    receiver.respond((req) => (served.has(req.remotePort) ? { status: 200, hangUp: true } : (served.add(req.remotePort), { status: 200, body: 'ok' })));
    expect((await postWebhook(`${receiver.origin}/stale`, '{}', {}, opts())).ok).toBe(true);
    const result = await postWebhook(`${receiver.origin}/stale`, '{}', {}, opts());
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    const requests = receiver.received.filter((r) => r.path === '/stale');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.remotePort)).size).toBe(2);
  });
});
