import fs from 'node:fs';
import path from 'node:path';
import { Resource } from '@opentelemetry/resources';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { defaultPayloadConverter } from '@temporalio/common';
import { TRACE_HEADER as PACKAGE_TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { workflowBundleCode } from '../../activities/worker-process';
import { workerTracingOptions } from '../../src/tracing/temporal-tracing';
import { TRACE_HEADER } from '../../workflows/tracing-interceptors';
import { historyFromJson } from '../support/histories';
import { workflowBundlePath } from '../support/stack';

/**
 * Determinism guard: every recorded history in test/histories/ (made by `npm run
 * record-histories`) is replayed against the current workflow code. A change that would break
 * workflows already running in production (reordered or removed activities, timers, child
 * workflows without `patched()`) fails here. See README, "Changing a workflow".
 */

const DIR = path.resolve(__dirname, '..', 'histories');
const QUIET = { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} };
const files = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

/** Every workflow type registered in workflows/index.ts has at least one recorded history. */
const REQUIRED_TYPES = [
  'searchWorkflow',
  'expansionWorkflow',
  'databasePassWorkflow',
  'rescoreWorkflow',
  'webhookDeliveryWorkflow',
  'outboxSweepWorkflow',
  'strandedPassSweepWorkflow',
  'healthProbeWorkflow',
  'topUpWorkflow',
  'calibrationWorkflow',
  'monitorRunWorkflow',
];

function load(file: string) {
  const history = historyFromJson(JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')));
  const type = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
  return { history, type, workflowId: file.replace(/\.json$/, '') };
}

describe('workflow replay', () => {
  it('has a recorded history of every workflow type', () => {
    const types = new Set(files.map((f) => load(f).type));
    expect(REQUIRED_TYPES.filter((t) => !types.has(t))).toEqual([]);
    const exported = Object.keys(jest.requireActual('../../workflows')).filter((k) => k.endsWith('Workflow'));
    expect(exported.filter((t) => !REQUIRED_TYPES.includes(t))).toEqual([]);
  });

  /** Replays every history on this bundle; the failures, by workflow id. */
  async function replayAll(code: string, options: Partial<ReplayWorkerOptions> = {}, startedIn?: string): Promise<string[]> {
    const histories = files.map(load);
    // As if each had been started inside a trace with this `traceparent` (the client interceptor's header).
    if (startedIn)
      for (const { history } of histories)
        history.events![0].workflowExecutionStartedEventAttributes!.header = {
          fields: { [TRACE_HEADER]: defaultPayloadConverter.toPayload({ traceparent: startedIn }) },
        };
    const results = Worker.runReplayHistories({ ...options, workflowBundle: { code } }, histories);
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of results) {
      replayed++;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(replayed).toBe(files.length);
    return failures;
  }

  it('replays every recorded history deterministically on the current workflow code', async () => {
    expect(await replayAll(fs.readFileSync(workflowBundlePath(), 'utf8'))).toEqual([]);
  });

  it('replays them the same with the tracing interceptors bundled in (workers with TRACING=on): spans and headers, never commands', async () => {
    // As a traced worker runs them: its interceptors and the sink that takes the workflow's spans.
    const traced = workerTracingOptions({ enabled: true, spanProcessor: new NoopSpanProcessor(), resource: Resource.empty(), shutdown: async () => undefined });
    const code = await workflowBundleCode({ traced: true, logger: QUIET });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    // Started outside a trace (as recorded), inside an unrecorded one (headers passed on), inside a recorded one (the package's spans).
    expect(await replayAll(code, traced)).toEqual([]);
    expect(await replayAll(code, traced, `00-${traceId}-00f067aa0ba902b7-00`)).toEqual([]);
    expect(await replayAll(code, traced, `00-${traceId}-00f067aa0ba902b7-01`)).toEqual([]);
  }, 180_000);

  it("carries the trace context in the header the package's interceptors read", () => {
    expect(TRACE_HEADER).toBe(PACKAGE_TRACE_HEADER);
  });
});
