import pg from 'pg';
import type { Logger } from '../logger';

/** Fallback poll when no notification arrives (e.g. the LISTEN connection dropped). */
export const DISPATCH_POLL_MS = 1000;

export interface DispatcherLoop {
  databaseUrl: string;
  runMs: number;
  /** Fans out what is pending; returns how many events it handled. */
  dispatch: () => Promise<number>;
  heartbeat: () => void;
  signal: AbortSignal;
  logger: Logger;
  pollMs?: number;
}

/**
 * The low-latency path of the outbox dispatcher: LISTEN for the commit-time NOTIFY of
 * outbox_events (migration trigger) and fan out at once; poll every second in case a
 * notification is missed. Runs inside the sweep activity, so Temporal restarts it elsewhere when
 * the worker dies (heartbeat timeout).
 */
export async function listenAndDispatch(loop: DispatcherLoop): Promise<void> {
  const client = new pg.Client({ connectionString: loop.databaseUrl, application_name: 'outbox-dispatcher' });
  let notified: boolean; // set by a NOTIFY while a dispatch runs, cleared before each
  let wake = () => {};
  client.on('notification', () => {
    notified = true;
    wake();
  });
  client.on('error', (err) => loop.logger.warn({ err }, 'outbox listener connection failed; polling'));
  const listening = client
    .connect()
    .then(() => client.query('listen outbox_events'))
    .catch((err) => loop.logger.warn({ err }, 'outbox listener unavailable; polling'));
  await listening;
  const deadline = Date.now() + loop.runMs;
  try {
    while (Date.now() < deadline && !loop.signal.aborted) {
      loop.heartbeat();
      notified = false;
      if ((await loop.dispatch()) > 0) continue;
      if (notified) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, loop.pollMs ?? DISPATCH_POLL_MS);
        loop.signal.addEventListener('abort', done, { once: true });
        wake = done;
        function done() {
          clearTimeout(timer);
          loop.signal.removeEventListener('abort', done);
          wake = () => {};
          resolve();
        }
      });
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
