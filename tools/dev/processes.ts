import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import readline from 'node:readline';

/** A free TCP port on 127.0.0.1 (the product needs it too, so it lives in src/). */
export { freePort } from '../../src/domain/free-port';

/** Whether a process of this pid exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number, intervalMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await probe()) return;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`${what} was not ready after ${timeoutMs} ms${lastError ? `: ${(lastError as Error).message}` : ''}`);
}

/** Calls `onGone` once when this process's parent exits (it was reparented), e.g. a killed bootstrap. */
export function onParentExit(onGone: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onGone();
    }
  }, 500);
  timer.unref();
}

interface Managed {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  /** A pending restart of a crashed restartable process. */
  restartTimer?: NodeJS.Timeout;
}

/** How long to wait before restarting a crashed process: doubling from the first to the max. */
export const RESTART_BACKOFF = { firstMs: 1000, maxMs: 30_000, resetAfterMs: 60_000 } as const;

export type SpawnSpec = SpawnOptions & {
  quiet?: boolean;
  /**
   * Restart the process when it exits on its own (after RESTART_BACKOFF, reset once it has run a
   * minute) instead of reporting it through onUnexpectedExit; `log` says so.
   */
  restart?: { log: (msg: string) => void };
};

/**
 * The child processes of one stack. Output lines are prefixed with the child's name; stopAll
 * sends SIGTERM in reverse start order and SIGKILL after a grace period, so nothing is orphaned.
 */
export class ProcessGroup {
  private readonly managed: Managed[] = [];
  private stopping = false;

  constructor(private readonly onUnexpectedExit: (name: string, code: number | null) => void) {}

  spawn(name: string, command: string, args: string[], options: SpawnSpec = {}): ChildProcess {
    const entry = { name } as Managed;
    this.managed.push(entry);
    let backoffMs: number = RESTART_BACKOFF.firstMs;
    const start = () => {
      const startedAt = Date.now();
      const { quiet, restart, ...spawnOptions } = options;
      const child = spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
      for (const stream of [child.stdout, child.stderr]) {
        const lines = readline.createInterface({ input: stream });
        if (!quiet) lines.on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
        else lines.on('line', () => undefined);
      }
      entry.child = child;
      entry.exited = new Promise<void>((resolve) => {
        child.on('exit', (code, signal) => {
          resolve();
          if (this.stopping) return;
          if (!restart) return this.onUnexpectedExit(name, code);
          // A process that ran a while crashed anew: start over from the shortest wait.
          if (Date.now() - startedAt >= RESTART_BACKOFF.resetAfterMs) backoffMs = RESTART_BACKOFF.firstMs;
          restart.log(`${name} exited (${signal ?? `code ${code}`}); restarting it in ${backoffMs / 1000} s`);
          entry.restartTimer = setTimeout(() => {
            entry.restartTimer = undefined;
            if (this.stopping) return;
            start();
            restart.log(`${name} restarted (pid ${entry.child.pid})`);
          }, backoffMs);
          backoffMs = Math.min(RESTART_BACKOFF.maxMs, backoffMs * 2);
        });
      });
    };
    start();
    return entry.child;
  }

  async stopAll(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    for (const entry of [...this.managed].reverse()) {
      clearTimeout(entry.restartTimer);
      const { child, exited } = entry;
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(killer);
    }
  }
}
