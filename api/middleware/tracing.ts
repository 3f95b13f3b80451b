import { context, trace } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import type { Middleware } from 'koa';
import { CREDENTIAL_PARAM, matchedRoute, type ApiState } from '../context';

/**
 * Completes the server span that the HTTP instrumentation opened for this request (src/tracing):
 * `request_id` (the X-Request-Id answered, also in every log line of the request) and the route
 * template as `http.route`, which also names the span (`GET /v1/searches/:searchId`). A route
 * whose path holds a credential records its template instead of the URL.
 */
export function traceRequest(): Middleware<ApiState> {
  return async (ctx, next) => {
    const span = trace.getActiveSpan();
    if (!span?.isRecording()) return next();
    span.setAttribute('request_id', ctx.state.requestId);
    try {
      await next();
    } finally {
      const route = matchedRoute(ctx);
      if (route) {
        // Read by the instrumentation when the response ends: it sets http.route and the span name.
        const rpc = getRPCMetadata(context.active());
        if (rpc?.type === RPCType.HTTP) rpc.route = route;
        if (route.includes(CREDENTIAL_PARAM)) span.setAttributes({ 'http.target': route, 'http.url': `${ctx.origin}${route}` });
      }
    }
  };
}
