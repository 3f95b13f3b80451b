/**
 * Workflow interceptors of workers with TRACING=on (bundled by activities/worker-process.ts; not a
 * workflow). A workflow started inside a recorded (sampled) trace gets the interceptors of
 * @temporalio/interceptors-opentelemetry: its run and each activity it schedules become spans of
 * that trace. Any other workflow only hands its caller's trace context on to what it schedules, so
 * the caller's decision not to record holds downstream (and a workflow started without one, by a
 * Schedule, leaves the decision to its activities' ratio), and it never loads the OpenTelemetry
 * SDK: the sandbox evaluates a workflow's modules afresh for every workflow, and the SDK's cost a
 * one-attempt webhook delivery about 20 ms of CPU (bench/webhooks.bench.ts).
 *
 * Deterministic: the choice follows the start's headers, which are in the history, and neither
 * path adds a command (test/unit/workflow-replay.test.ts replays every history both ways).
 */
import { defaultPayloadConverter, type Headers, type Payload } from '@temporalio/common';
import type {
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptors,
  WorkflowInternalsInterceptor,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

/** The header the package carries the trace context in (its TRACE_HEADER; a unit test holds them equal). */
export const TRACE_HEADER = '_tracer-data';

type OtelWorkflowModule = typeof import('@temporalio/interceptors-opentelemetry/lib/workflow');

/** Whether the W3C context in the header says the trace is recorded (the sampled flag of `traceparent`). */
export function isSampledTrace(header: Payload): boolean {
  const carrier = defaultPayloadConverter.fromPayload<Record<string, string> | null>(header);
  const flags = carrier?.traceparent?.split('-')[3];
  return flags !== undefined && (parseInt(flags, 16) & 1) === 1;
}

export const interceptors = (): WorkflowInterceptors => {
  let otel: { inbound: WorkflowInboundCallsInterceptor; outbound: WorkflowOutboundCallsInterceptor; internals: WorkflowInternalsInterceptor } | undefined;
  let callerContext: Payload | undefined;
  const passOn = <T extends { headers: Headers }>(input: T): T =>
    callerContext ? { ...input, headers: { ...input.headers, [TRACE_HEADER]: callerContext } } : input;

  const inbound: WorkflowInboundCallsInterceptor = {
    execute(input, next) {
      callerContext = input.headers[TRACE_HEADER];
      if (!callerContext || !isSampledTrace(callerContext)) return next(input);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated only for a recorded trace (see above)
      const pkg = require('@temporalio/interceptors-opentelemetry/lib/workflow') as OtelWorkflowModule;
      otel = {
        inbound: new pkg.OpenTelemetryInboundInterceptor(),
        outbound: new pkg.OpenTelemetryOutboundInterceptor(),
        internals: new pkg.OpenTelemetryInternalsInterceptor(),
      };
      return otel.inbound.execute!(input, next);
    },
    handleSignal: (input, next) => (otel ? otel.inbound.handleSignal!(input, next) : next(input)),
    handleQuery: (input, next) => (otel ? otel.inbound.handleQuery!(input, next) : next(input)),
    handleUpdate: (input, next) => (otel ? otel.inbound.handleUpdate!(input, next) : next(input)),
    validateUpdate: (input, next) => (otel ? otel.inbound.validateUpdate!(input, next) : next(input)),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => (otel ? otel.outbound.scheduleActivity!(input, next) : next(passOn(input))),
    scheduleLocalActivity: (input, next) => (otel ? otel.outbound.scheduleLocalActivity!(input, next) : next(passOn(input))),
    startChildWorkflowExecution: (input, next) => (otel ? otel.outbound.startChildWorkflowExecution!(input, next) : next(passOn(input))),
    continueAsNew: (input, next) => (otel ? otel.outbound.continueAsNew!(input, next) : next(passOn(input))),
    signalWorkflow: (input, next) => (otel ? otel.outbound.signalWorkflow!(input, next) : next(passOn(input))),
    getLogAttributes: (input, next) => (otel ? otel.outbound.getLogAttributes!(input, next) : next(input)),
  };
  const internals: WorkflowInternalsInterceptor = {
    dispose: (input, next) => (otel ? otel.internals.dispose!(input, next) : next(input)),
  };
  return { inbound: [inbound], outbound: [outbound], internals: [internals] };
};
