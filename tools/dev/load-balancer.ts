import http from 'node:http';
import type net from 'node:net';

/**
 * The small load balancer in front of the production-like stack's API processes: round-robin over
 * the upstreams, and a request whose connection an upstream refuses (a dead process: nothing was
 * sent to it) goes to the next one, as a proxy's passive health check would do. A request an
 * upstream accepted and then dropped is answered 502: it may have had an effect, so it is not
 * replayed. Sets X-Forwarded-For (the APIs run with TRUST_PROXY=true).
 */

export interface LoadBalancer {
  url: string;
  port: number;
  /** Requests answered 502 because no upstream took them or one dropped them. */
  stats: { proxied: number; retried: number; failed: number };
  close(): Promise<void>;
}

export async function startLoadBalancer(opts: { port: number; upstreams: () => string[] }): Promise<LoadBalancer> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const stats = { proxied: 0, retried: 0, failed: 0 };
  let next = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstreams = opts.upstreams();
      const first = next++;
      const attempt = (tried: number) => {
        if (tried >= upstreams.length) {
          stats.failed++;
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 'bad_gateway', message: 'no API process accepted the request' } }));
          return;
        }
        const target = new URL(upstreams[(first + tried) % upstreams.length]);
        const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
        const upstream = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, 'x-forwarded-for': forwardedFor, 'content-length': String(body.length) },
            agent,
          },
          (upRes) => {
            stats.proxied++;
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            upRes.pipe(res);
            upRes.on('error', () => res.destroy());
          },
        );
        upstream.on('error', (err: NodeJS.ErrnoException) => {
          if (res.headersSent) return res.destroy();
          // Refused (or reset before a byte was written by a socket reused from the pool): never reached the API.
          const unsent =
            err.code === 'ECONNREFUSED' || (err.code === 'ECONNRESET' && (upstream as http.ClientRequest & { reusedSocket?: boolean }).reusedSocket);
          if (unsent) {
            stats.retried++;
            return attempt(tried + 1);
          }
          stats.failed++;
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 'bad_gateway', message: `the API process dropped the request (${err.code ?? err.message})` } }));
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
