import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '../../tools/dev/processes';

export interface TestCert {
  /** The CA file a client must trust (NODE_EXTRA_CA_CERTS): the run's CA, or the certificate itself. */
  certFile: string;
  /** The CA certificate, for clients given `ca` directly. */
  ca: string;
  /** The server's certificate and key. */
  cert: string;
  key: string;
}

/**
 * The sink's certificate. Under `npm test` it is the server certificate issued by the run's own
 * CA (TEST_CA_DIR), which every process of the run already trusts through NODE_EXTRA_CA_CERTS;
 * elsewhere (benchmarks, chaos) a self-signed one for 127.0.0.1, localhost and hooks.example.test.
 */
export function makeTestCert(): TestCert {
  const runCa = process.env.TEST_CA_DIR;
  if (!runCa) return selfSignedCert();
  const read = (name: string) => fs.readFileSync(path.join(runCa, name), 'utf8');
  return { certFile: path.join(runCa, 'ca.pem'), ca: read('ca.pem'), cert: read('server.pem'), key: read('server-key.pem') };
}

/** A self-signed certificate for 127.0.0.1, localhost and hooks.example.test: trusted by nobody unless given as `ca`. */
export function selfSignedCert(): TestCert {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-cert-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,DNS:hooks.example.test,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  const cert = fs.readFileSync(certFile, 'utf8');
  return { certFile, ca: cert, cert, key: fs.readFileSync(keyFile, 'utf8') };
}

export interface Received {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as received, for signature checks. */
  raw: Buffer;
  json: any;
  servername: string | null;
  /** The client's port: the same port means the same (kept-alive) connection. */
  remotePort: number | undefined;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Drop the connection instead of answering. */
  hangUp?: boolean;
}

export type Responder = (req: Received) => Reply;

export interface HttpsReceiver {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  port: number;
  received: Received[];
  /** Replies for later requests (default 200 "ok"). */
  respond(responder: Responder): void;
  /** Requests whose path is `path`, once there are at least `count`. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTPS server on 127.0.0.1 recording every request, answering per `respond`. */
export async function startHttpsReceiver(cert: TestCert, responder: Responder = () => ({ status: 200, body: 'ok' })): Promise<HttpsReceiver> {
  let reply = responder;
  const received: Received[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = https.createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined;
      }
      const entry: Received = {
        at,
        path: req.url ?? '',
        headers: req.headers,
        raw,
        json,
        servername: (req.socket as { servername?: string }).servername || null,
        remotePort: req.socket.remotePort,
      };
      received.push(entry);
      const r = reply(entry);
      if (r.hangUp) return void req.socket.destroy();
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(r.status, r.headers ?? {});
        res.end(r.body ?? '');
      };
      if (!r.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, r.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `https://127.0.0.1:${port}`,
    port,
    received,
    respond(r) {
      reply = r;
    },
    async waitFor(p, count, timeoutMs = 20_000) {
      const matching = () => received.filter((r) => r.path === p);
      await waitFor(`${count} request(s) to ${p}`, async () => matching().length >= count, timeoutMs, 25);
      return matching();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
