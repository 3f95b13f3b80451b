/**
 * Task queues. Webhook deliveries (and the outbox fan-out that starts them) have their own queue
 * so a burst of slow endpoints, each attempt holding a workflow task slot for up to 10 s, never
 * delays search workflow tasks. Both derive from TEMPORAL_TASK_QUEUE, so every deployment (and
 * every test stack) has its own pair. No imports: the worker's entry point parses `--queues`
 * before it loads anything tracing instruments (activities/worker.ts).
 */
export const QUEUE_KINDS = ['main', 'webhooks'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];
export const taskQueueName = (mainQueue: string, kind: QueueKind): string => (kind === 'main' ? mainQueue : `${mainQueue}-${kind}`);

/** `--queues main,webhooks` (default: all): which task queues this worker process serves. */
export function parseQueues(argv: string[]): QueueKind[] {
  const at = argv.findIndex((a) => a === '--queues' || a.startsWith('--queues='));
  if (at < 0) return [...QUEUE_KINDS];
  const value = argv[at].includes('=') ? argv[at].slice('--queues='.length) : argv[at + 1];
  const kinds = (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const unknown = kinds.filter((k) => !(QUEUE_KINDS as readonly string[]).includes(k));
  if (kinds.length === 0 || unknown.length)
    throw new Error(`--queues takes a comma-separated list of ${QUEUE_KINDS.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`);
  return [...new Set(kinds)] as QueueKind[];
}
