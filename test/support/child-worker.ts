import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { waitFor } from '../../src/dev/processes';
import { scheduleIds } from '../../src/temporal/catalog';
import type { TestStack } from './stack';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * The worker as a child process on the stack's task queue: webhook deliveries to a local HTTPS
 * receiver need it, since the worker must trust the receiver's self-signed certificate and
 * NODE_EXTRA_CA_CERTS is read only when a process starts. Resolves once the API sees it polling.
 * It creates no Schedules: an outbox sweep of this stack would claim other test files' events
 * from the shared database and send them with this process's certificate trust.
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

/**
 * create_webhook ensures the stack's outbox sweep Schedule (and triggers a run at once). A test
 * that delivers through its own child worker stops it again, for the reason above: its test
 * deliveries are fanned out by the API itself and need no sweep.
 */
export async function stopOutboxSweep(stack: TestStack): Promise<void> {
  const schedule = stack.temporal.client.schedule.getHandle(scheduleIds.outboxSweep(stack.config.temporal.taskQueue));
  let running: string[] = [];
  await waitFor(
    'the outbox sweep run',
    async () => {
      const info = (await schedule.describe()).info;
      running = [...info.runningActions, ...info.recentActions.map((a) => a.action)].map((a) => a.workflow.workflowId);
      return running.length > 0;
    },
    10_000,
    50,
  );
  await schedule.delete();
  for (const workflowId of new Set(running))
    await stack.temporal.client.workflow
      .getHandle(workflowId)
      .terminate('test stack: no outbox sweep')
      .catch(() => undefined);
}
