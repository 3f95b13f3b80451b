import http from 'node:http';

/** A probe answer: 200 when healthy, 503 otherwise, with the checks as JSON. */
export interface ProbeResult {
  ok: boolean;
  checks?: Record<string, 'ok' | 'error'>;
}

export interface MetricsServerOptions {
  host: string;
  port: number;
  /** Renders the Prometheus text exposition. */
  render: () => Promise<string>;
  contentType: string;
  /** Optional readiness probe served as /readyz (with /livez beside it). */
  ready?: () => Promise<ProbeResult>;
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * A small HTTP server for scrapers and orchestrators: /metrics, and when a readiness probe is
 * given /livez and /readyz. It has no auth: bind it where only the scraper reaches it.
 */
export async function startMetricsServer(opts: MetricsServerOptions): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const answer = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, 'text/plain', 'method not allowed\n');
    if (path === '/metrics') {
      opts.render().then(
        (text) => answer(200, opts.contentType, text),
        (err: Error) => answer(500, 'text/plain', `metrics failed: ${err.message}\n`),
      );
    } else if (path === '/livez' && opts.ready) {
      answer(200, 'application/json', JSON.stringify({ ok: true }));
    } else if (path === '/readyz' && opts.ready) {
      opts.ready().then(
        (probe) => answer(probe.ok ? 200 : 503, 'application/json', JSON.stringify(probe)),
        () => answer(503, 'application/json', JSON.stringify({ ok: false })),
      );
    } else answer(404, 'text/plain', 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, resolve);
  });
  const address = server.address() as { port: number; address: string };
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
