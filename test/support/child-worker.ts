import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { waitFor } from '../../tools/dev/processes';
import type { TestStack } from './stack';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * The worker as a child process on the stack's task queue: webhook deliveries to a local HTTPS
 * receiver need it, since the worker must trust the receiver's self-signed certificate and
 * NODE_EXTRA_CA_CERTS is read only when a process starts. Resolves once the API sees it polling.
 * It creates no Schedules at start (the API ensures the outbox sweep when a webhook is created).
 */
export async function startChildWorker(stack: TestStack, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'activities/worker.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue, LOG_LEVEL: 'warn', SWEEP_SCHEDULES_ON_START: 'false' },
    stdio: 'ignore',
  });
  await waitFor('the child worker', async () => (await stack.request('GET', '/v1/health?worker=true')).status === 200, 120_000, 500);
  return child;
}
