import fs from 'node:fs';
import net from 'node:net';

/**
 * Ports are picked below the kernel's ephemeral range. A port the operating system picks
 * (`listen(0)`) comes from that range, which is also where every outgoing connection (a PostgreSQL
 * pool, a Temporal gRPC channel) takes its local port; between the pick and the child's own
 * `listen` such a connection could take it (a CI run failed once with EADDRINUSE that way).
 * They also stay below 32768, because Temporal stores its membership ports in a smallint column.
 */
const FALLBACK_EPHEMERAL_LOW = 32768;
const LOWEST = 10_000;
const ATTEMPTS = 64;

/** Ports this process has handed out, so two picks in one `Promise.all` never coincide. */
const handedOut = new Set<number>();

function ephemeralLow(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + 1000 ? Math.min(low, FALLBACK_EPHEMERAL_LOW) : FALLBACK_EPHEMERAL_LOW;
  } catch {
    return FALLBACK_EPHEMERAL_LOW;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function osPick(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A TCP port free on 127.0.0.1 right now, outside the ephemeral range, for a process about to listen on it. */
export async function freePort(): Promise<number> {
  const high = ephemeralLow();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (high - LOWEST));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  return osPick(); // a machine whose low ports are all taken: the old way
}
