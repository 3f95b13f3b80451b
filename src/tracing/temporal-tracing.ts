import { context, trace, type SpanContext } from '@opentelemetry/api';
import type { Context as ActivityContext } from '@temporalio/activity';
import type { ClientInterceptors, WorkflowClientInterceptor } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptors, WorkerOptions } from '@temporalio/worker';
import { sampledTraceId } from './trace-context';
import type { Tracing } from './tracing';

/**
 * Temporal in the same trace as the request that started the work (@temporalio/interceptors-
 * opentelemetry): a workflow start carries the caller's trace context in its headers, the
 * workflow's run and each activity it schedules (local ones too) become spans of that trace, and
 * an activity runs inside its span, so its SQL and HTTP calls are its children.
 */

/**
 * Adds `trace_id` to the memo of every workflow started inside a recorded trace, so support staff
 * can go from a workflow in the Temporal UI to its trace in Zipkin.
 */
const traceIdInMemo: WorkflowClientInterceptor = {
  async startWithDetails(input, next) {
    const traceId = sampledTraceId();
    if (!traceId) return next(input);
    return next({ ...input, options: { ...input.options, memo: { ...input.options.memo, trace_id: traceId } } });
  },
};

/** Interceptors of a Temporal Client (the API's, and the one the worker hands to activities). */
export function tracedClientInterceptors(): ClientInterceptors {
  // The OpenTelemetry interceptor comes first: the memo then sees its StartWorkflow span.
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor(), traceIdInMemo] };
}

/**
 * The package's activity interceptors (the activity runs inside its span; Temporal's activity
 * logger gets the trace), plus the trace in the SDK's own lines written after the activity's span
 * ended ('Activity completed', 'Activity failed' at warn), which it writes outside that span.
 */
function activityInterceptors(ctx: ActivityContext): ActivityInterceptors {
  const inbound = new OpenTelemetryActivityInboundInterceptor(ctx);
  const outbound = new OpenTelemetryActivityOutboundInterceptor(ctx);
  let ran: SpanContext | undefined;
  return {
    inbound: {
      execute: (input, next) =>
        inbound.execute(input, (traced) => {
          ran = trace.getSpanContext(context.active());
          return next(traced);
        }),
    },
    outbound: {
      getLogAttributes: (input, next) =>
        outbound.getLogAttributes(input, (attributes) =>
          next(
            ran && !('trace_id' in attributes)
              ? { trace_id: ran.traceId, span_id: ran.spanId, trace_flags: `0${ran.traceFlags.toString(16)}`, ...attributes }
              : attributes,
          ),
        ),
    },
  };
}

/**
 * What a worker adds when tracing is on: activity and client interceptors, and the sink through
 * which the sandboxed workflow code hands its spans to this process's span processor (workflows
 * cannot do I/O). The workflow bundle must be built with the tracing workflow interceptors
 * (workflows/tracing-interceptors.ts; workflowBundleCode in activities/worker-process.ts).
 */
export function workerTracingOptions(tracing: Tracing): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  if (!tracing.enabled) return {};
  return {
    interceptors: {
      client: tracedClientInterceptors(),
      activity: [activityInterceptors],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
