import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import net from 'node:net';
import readline from 'node:readline';

/** A free TCP port on 127.0.0.1, for the test stack's private ports. */
export function freePort(): Promise<number> {
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
}

/**
 * The child processes of one stack. Output lines are prefixed with the child's name; stopAll
 * sends SIGTERM in reverse start order and SIGKILL after a grace period, so nothing is orphaned.
 */
export class ProcessGroup {
  private readonly managed: Managed[] = [];
  private stopping = false;

  constructor(private readonly onUnexpectedExit: (name: string, code: number | null) => void) {}

  spawn(name: string, command: string, args: string[], options: SpawnOptions & { quiet?: boolean } = {}): ChildProcess {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      const lines = readline.createInterface({ input: stream });
      if (!options.quiet) lines.on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
      else lines.on('line', () => undefined);
    }
    const exited = new Promise<void>((resolve) => {
      child.on('exit', (code) => {
        if (!this.stopping) this.onUnexpectedExit(name, code);
        resolve();
      });
    });
    this.managed.push({ name, child, exited });
    return child;
  }

  async stopAll(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    for (const { child, exited } of [...this.managed].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(killer);
    }
  }
}
