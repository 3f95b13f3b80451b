/**
 * The engine's floor for webhook deliveries (bench/webhooks.bench.ts): what "one workflow per
 * delivery" costs on the same Temporal server with none of our work in it. One process, as our
 * worker is: it starts the workflows itself (eager starts on its own connection, 32 at a time, as
 * src/webhooks/fanout.ts does) and serves them, with the worker tuning of our webhooks queue; each
 * workflow runs one local activity that does nothing but note the time (the "receipt").
 *
 * With FLOOR_START_OPTIONS=ours each start carries what ours does (src/webhooks/temporal.ts): the
 * `WorkspaceId` search attribute, REJECT_DUPLICATE and a delivery's input, which the workflow
 * ignores: the engine's price of those options, apart from our work.
 *
 * Protocol: reads `run <count>` lines on stdin, answers `FLOOR ready` once, then one line per run
 * on stdout: `FLOOR {"count", "seconds", "perSecond", "p50", "p99"}` (start issued → local
 * activity ran, ms). Other stdout lines are the SDK's.
 */
import { randomUUID } from 'node:crypto';
import readline from 'node:readline';
import { Client, type WorkflowStartOptions } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { bundleWorkflowCode, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { SPEC_RETRY_SCHEDULE_SECONDS, type DeliveryWorkflowInput } from '../../src/webhooks/contract';
import { WorkspaceIdAttr } from '../../src/temporal/search-attributes';

const TASK_QUEUE = `webhook-floor-${process.pid}`;
const START_CONCURRENCY = 32; // src/webhooks/fanout.ts
const WORKFLOW_TASK_SLOTS = 500; // activities/worker-process.ts, the webhooks queue

const received = new Map<number, number>();
const OUR_START_OPTIONS = process.env.FLOOR_START_OPTIONS === 'ours';

/** The start of workflow `n`: the floor's own, or with our delivery's start options. */
function startOptions(n: number): WorkflowStartOptions {
  const plain = { taskQueue: TASK_QUEUE, workflowId: `floor-${randomUUID()}`, args: [n], requestEagerStart: true };
  if (!OUR_START_OPTIONS) return plain;
  const input: DeliveryWorkflowInput = { deliveryId: randomUUID(), retryScheduleSeconds: [...SPEC_RETRY_SCHEDULE_SECONDS] };
  return {
    ...plain,
    args: [n, input],
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    typedSearchAttributes: new TypedSearchAttributes([{ key: WorkspaceIdAttr, value: randomUUID() }]),
  };
}
/** Prefixes the protocol's lines: the SDK's own log lines may go to stdout too. */
const RESULT = 'FLOOR';

async function main(): Promise<void> {
  Runtime.install({ logger: { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error } });
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('./workflows'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  const worker = await Worker.create({
    connection,
    taskQueue: TASK_QUEUE,
    workflowBundle: { code },
    activities: { deliver: async (n: number) => void received.set(n, performance.now()) },
    maxConcurrentWorkflowTaskExecutions: WORKFLOW_TASK_SLOTS,
  });
  const running = worker.run();
  const client = new Client({ connection });
  let next = 0;
  const lines = readline.createInterface({ input: process.stdin });
  process.stdout.write(`${RESULT} ready\n`);
  for await (const line of lines) {
    const [command, arg] = line.trim().split(/\s+/);
    if (command !== 'run') continue;
    const count = Number(arg);
    const first = next;
    next += count;
    const startedAt = new Map<number, number>();
    const t0 = performance.now();
    let cursor = first;
    await Promise.all(
      Array.from({ length: START_CONCURRENCY }, async () => {
        while (cursor < first + count) {
          const n = cursor++;
          startedAt.set(n, performance.now());
          await client.workflow.start('floorDeliveryWorkflow', startOptions(n));
        }
      }),
    );
    while ([...startedAt.keys()].some((n) => !received.has(n))) await new Promise((r) => setTimeout(r, 5));
    const latencies = [...startedAt].map(([n, t]) => received.get(n)! - t).sort((a, b) => a - b);
    const last = Math.max(...[...startedAt.keys()].map((n) => received.get(n)!));
    const seconds = (last - t0) / 1000;
    const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]);
    process.stdout.write(`${RESULT} ${JSON.stringify({ count, seconds, perSecond: count / seconds, p50: pct(50), p99: pct(99) })}\n`);
  }
  if (worker.getState() === 'RUNNING') worker.shutdown();
  await running;
  await connection.close();
}

main().catch((err) => {
  process.stderr.write(`webhook floor worker failed: ${err?.stack ?? err}\n`);
  process.exit(1);
});
