import os from 'node:os';
import { diag, DiagLogLevel, type Span } from '@opentelemetry/api';
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { SIGNATURE_HEADER } from '../webhooks/signing';

/**
 * OpenTelemetry in the API and the worker: a span for each HTTP request served, each SQL
 * statement, each outgoing HTTP call, and (src/tracing/temporal-tracing.ts) each workflow start,
 * workflow run and activity, exported to Zipkin.
 *
 * Versions: the OpenTelemetry JS 1.x SDK (sdk-trace 1.30, instrumentations 0.57). The Temporal
 * interceptors (@temporalio/interceptors-opentelemetry 1.24.0, pinned with the rest of the
 * Temporal SDK) build the workflow spans with sdk-trace-base 1.x and hand them to our span
 * processor; a 2.x exporter reads a span's parent from a field 1.x spans do not have, so every
 * workflow span would lose its parent. The 3.x SDK needs Node 22.
 */

export type Tracing =
  | { enabled: false; shutdown(): Promise<void> }
  | {
      enabled: true;
      /** Where finished spans go; the worker hands it the workflow sandbox's spans too. */
      spanProcessor: SpanProcessor;
      resource: Resource;
      /** Exports what is still buffered, then stops. */
      shutdown(): Promise<void>;
    };

export const TRACING_OFF: Tracing = { enabled: false, shutdown: async () => undefined };

/** Probes, scrapes and the web app's static files: a trace each would bury the requests that matter. */
const UNTRACED_PATHS = /^\/(livez|readyz|metrics)(\?|$)|^\/app\//;

/** Spans kept between exports (a full buffer drops new spans rather than grow), and how often they are sent. */
const EXPORT = { maxQueueSize: 8192, maxExportBatchSize: 1024, scheduledDelayMillis: 1000 };

/** SQL text beyond this is cut in the span: enough to recognise a statement, bounded in memory. */
const ATTRIBUTE_VALUE_LIMIT = 2048;

/**
 * Starts tracing for this process when TRACING=on. Must run before the modules it instruments
 * (http, https, pg) are loaded: the process entry points (api/server.ts, activities/worker.ts)
 * call it first and load everything else afterwards.
 */
export function startTracing(config: Config, processName: 'api' | 'worker', logger: Logger): Tracing {
  if (!config.tracing.enabled) return TRACING_OFF;
  reportTracingTroubleTo(logger.child({ component: 'tracing' }));
  const resource = new Resource({
    [ATTR_SERVICE_NAME]: `candidate-sourcing-${processName}`,
    'service.instance.id': `${os.hostname()}:${process.pid}`,
  });
  const spanProcessor = new BatchSpanProcessor(new ZipkinExporter({ url: config.tracing.zipkinUrl }), EXPORT);
  const provider = new NodeTracerProvider({
    resource,
    mergeResourceWithDefaults: false,
    // A caller's sampling decision (traceparent) is kept; a trace that starts here is recorded at the ratio.
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.tracing.sampleRatio) }),
    spanLimits: { attributeValueLengthLimit: ATTRIBUTE_VALUE_LIMIT },
    spanProcessors: [spanProcessor],
  });
  // The AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.test(request.url ?? ''),
        // Outgoing calls outside any trace (none are expected) are not worth a trace of their own.
        requireParentforOutgoingSpans: true,
        requestHook: (span, request) => {
          // Incoming requests are named and cleaned by the API's tracing middleware, which knows the route.
          if ('getHeader' in request) describeOutgoingCall(span, request);
        },
      }),
      // fetch: the provider adapters (People Data Labs, Brave, OpenAI, Hunter) and their key checks.
      new UndiciInstrumentation({
        requireParentforSpans: true,
        startSpanHook: (request) => {
          const url = new URL(request.path, request.origin);
          return { 'url.full': `${url.origin}${url.pathname}`, 'url.query': undefined };
        },
        requestHook: (span, request) => span.updateName(`${request.method} ${new URL(request.origin).host}`),
      }),
      // SQL only inside a trace: background loops (usage flushes) would otherwise start one per statement.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  return {
    enabled: true,
    spanProcessor,
    resource,
    shutdown: () => provider.shutdown(),
  };
}

/**
 * An outgoing call's span says where it went and how it ended (method, host, status), never what
 * was sent: the query string (a key can travel there, e.g. Hunter's `api_key`) is dropped, and a
 * signed webhook POST keeps only the endpoint's origin, since a receiver's path can itself be a
 * secret (e.g. Slack-style hook URLs). Bodies and headers are never recorded.
 */
export function outgoingUrlAttributes(call: { protocol: string; host: string; path: string; signed: boolean }): Record<string, string> {
  const path = call.signed ? '' : call.path.split('?')[0];
  return { 'http.url': `${call.protocol}//${call.host}${path}`, 'http.target': call.signed ? '[redacted]' : path };
}

type OutgoingRequest = { method: string; protocol: string; host: string; path: string; getHeader(name: string): number | string | string[] | undefined };

function describeOutgoingCall(span: Span, request: OutgoingRequest): void {
  // The Host header carries a port other than the scheme's; ClientRequest.host never does.
  const hostHeader = request.getHeader('host');
  const host = typeof hostHeader === 'string' ? hostHeader : request.host;
  span.updateName(`${request.method} ${request.host}`);
  span.setAttributes(
    outgoingUrlAttributes({ protocol: request.protocol, host, path: request.path, signed: request.getHeader(SIGNATURE_HEADER) !== undefined }),
  );
}

/**
 * The SDK's own warnings (a module loaded before its instrumentation, spans dropped from a full
 * buffer) and export failures (Zipkin unreachable) go to our log, at most one line a minute per
 * kind (numbers aside), so a collector that is down for an hour costs sixty lines, not one per batch.
 */
function reportTracingTroubleTo(logger: Logger): void {
  const lastLogged = new Map<string, number>();
  const report = (what: string, detail: string, key = what) => {
    const now = Date.now();
    if (now - (lastLogged.get(key) ?? 0) < 60_000) return;
    lastLogged.set(key, now);
    logger.warn({ detail }, what);
  };
  setGlobalErrorHandler((err) => report('span export failed', err instanceof Error ? err.message : JSON.stringify(err)));
  const fromDiag =
    (what: string) =>
    (message: string, ...args: unknown[]) =>
      report(what, [message, ...args.map(String)].join(' '), message.replace(/\d+/g, 'N'));
  diag.setLogger(
    {
      error: fromDiag('opentelemetry error'),
      warn: fromDiag('opentelemetry warning'),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    DiagLogLevel.WARN,
  );
}
