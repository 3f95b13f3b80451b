import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

/**
 * The trace context of the current span, through the OpenTelemetry API only: without a started
 * SDK (TRACING=off, the CLI, in-process tests) every function here is a cheap no-op.
 */

/** A W3C trace context as propagation headers (`traceparent`, `tracestate`): what an outbox row keeps. */
export type TraceCarrier = Record<string, string>;

/** `trace_id`, `span_id`, `trace_flags` of the active span, for every log line written inside it. */
export function traceLogFields(): Record<string, string> {
  const span = trace.getSpanContext(context.active());
  if (!span || !trace.isSpanContextValid(span)) return {};
  return { trace_id: span.traceId, span_id: span.spanId, trace_flags: `0${span.traceFlags.toString(16)}` };
}

/** The trace id of the active span when that trace is recorded (sampled); else null. */
export function sampledTraceId(): string | null {
  const span = trace.getSpanContext(context.active());
  if (!span || !trace.isSpanContextValid(span) || !(span.traceFlags & TraceFlags.SAMPLED)) return null;
  return span.traceId;
}

/** The active span's context as headers, to continue the trace later elsewhere; null outside a trace. */
export function currentTraceCarrier(): TraceCarrier | null {
  const span = trace.getSpanContext(context.active());
  if (!span || !trace.isSpanContextValid(span)) return null;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length ? carrier : null;
}

/**
 * Runs `fn` as a continuation of the trace in `carrier` (its spans become children of the span
 * that wrote it), or at the root when there is none, so `fn` never joins the caller's trace.
 */
export function withTraceCarrier<T>(carrier: TraceCarrier | null | undefined, fn: () => T): T {
  return context.with(carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT, fn);
}

/** Runs `fn` without recording spans (a polling loop that would otherwise add a span a second). */
export function withoutTracing<T>(fn: () => T): T {
  return context.with(suppressTracing(context.active()), fn);
}
