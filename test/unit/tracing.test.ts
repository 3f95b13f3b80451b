import { context, trace, TraceFlags } from '@opentelemetry/api';
import { AlwaysOnSampler, InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { currentTraceCarrier, sampledTraceId, traceLogFields, withoutTracing, withTraceCarrier } from '../../src/tracing/trace-context';
import { outgoingUrlAttributes } from '../../src/tracing/tracing';

/**
 * The trace-context helpers against a registered SDK (context manager and W3C propagator, as
 * `startTracing` registers them); the instrumentation itself is tested end to end in
 * test/integration/tracing.test.ts.
 */

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
const tracer = trace.getTracer('test');

afterAll(() => provider.shutdown());

describe('outgoing call attributes', () => {
  it('keep the host and path of a provider call, never its query (keys travel there)', () => {
    expect(outgoingUrlAttributes({ protocol: 'https:', host: 'api.hunter.io', path: '/v2/email-finder?domain=a.com&api_key=secret', signed: false })).toEqual({
      'http.url': 'https://api.hunter.io/v2/email-finder',
      'http.target': '/v2/email-finder',
    });
  });

  it("keep only a signed webhook POST's origin: a receiver's path can be its secret", () => {
    expect(outgoingUrlAttributes({ protocol: 'https:', host: 'hooks.example.com:8443', path: '/services/T0/B0/XXXX?x=1', signed: true })).toEqual({
      'http.url': 'https://hooks.example.com:8443',
      'http.target': '[redacted]',
    });
  });
});

describe('trace context', () => {
  it('puts the active span in log lines, and nothing outside a trace', () => {
    expect(traceLogFields()).toEqual({});
    tracer.startActiveSpan('work', (span) => {
      const { traceId, spanId } = span.spanContext();
      expect(traceLogFields()).toEqual({ trace_id: traceId, span_id: spanId, trace_flags: '01' });
      span.end();
    });
  });

  it('carries a trace across a stored carrier: what runs later is a child of the span that wrote it', () => {
    let carrier: Record<string, string> | null = null;
    let writer: { traceId: string; spanId: string } | undefined;
    tracer.startActiveSpan('request', (span) => {
      writer = span.spanContext();
      carrier = currentTraceCarrier();
      span.end();
    });
    expect(carrier).toEqual({ traceparent: `00-${writer!.traceId}-${writer!.spanId}-01` });
    // Inside another trace, the carrier's trace wins: the delivery joins the request's trace, not the dispatcher's.
    tracer.startActiveSpan('dispatcher', (dispatcher) => {
      withTraceCarrier(carrier, () => tracer.startActiveSpan('delivery', (delivery) => delivery.end()));
      withTraceCarrier(null, () => tracer.startActiveSpan('orphan', (orphan) => orphan.end()));
      dispatcher.end();
    });
    const spans = new Map(exporter.getFinishedSpans().map((s) => [s.name, s]));
    expect(spans.get('delivery')!.spanContext().traceId).toBe(writer!.traceId);
    expect(spans.get('delivery')!.parentSpanId).toBe(writer!.spanId);
    // No carrier: a trace of its own, never the caller's.
    expect(spans.get('orphan')!.spanContext().traceId).not.toBe(spans.get('dispatcher')!.spanContext().traceId);
    expect(spans.get('orphan')!.parentSpanId).toBeUndefined();
  });

  it('has no carrier and no memo trace id outside a trace or for an unsampled one', () => {
    expect(currentTraceCarrier()).toBeNull();
    expect(sampledTraceId()).toBeNull();
    const unsampled = trace.setSpanContext(context.active(), { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.NONE });
    context.with(unsampled, () => {
      expect(sampledTraceId()).toBeNull();
      expect(currentTraceCarrier()).toEqual({ traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-00` });
    });
  });

  it('records nothing inside withoutTracing', () => {
    exporter.reset();
    withoutTracing(() => tracer.startActiveSpan('poll', (span) => span.end()));
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
