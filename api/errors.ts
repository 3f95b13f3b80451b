import { z } from 'zod';
import type { RouteAuth } from './route-def';

/** The HTTP status of every key-API error code (spec "Key API error shape"). */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_name: 400,
  invalid_criteria: 400,
  criteria_required: 400,
  candidate_ids_required: 400,
  idempotency_key_required: 400,
  needs_new_search: 400,
  invalid_webhook_url: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  plan_required: 402,
  no_active_plan: 402,
  shortlist_allocation_exhausted: 402,
  api_access_disabled: 403,
  insufficient_scope: 403,
  project_not_found: 404,
  search_not_found: 404,
  candidate_not_found: 404,
  webhook_not_found: 404,
  delivery_not_found: 404,
  profile_not_found: 404,
  company_not_found: 404,
  monitor_not_found: 404,
  idempotency_key_reused: 409,
  search_running: 409,
  search_not_finished: 409,
  no_search_to_expand: 409,
  expansion_limit: 409,
  webhook_limit_reached: 409,
  webhook_disabled: 409,
  monitor_exists: 409,
  monitor_limit_reached: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  provider_unavailable: 424,
  search_unavailable: 424,
  rate_limited: 429,
  network_busy: 429,
  concurrent_search_limit: 429,
  daily_search_limit: 429,
  internal_error: 500,
  provider_error: 502,
  service_unavailable: 503,
  brief_reader_busy: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Path placeholders that name a resource: a malformed or foreign id is that resource's 404. */
export const PATH_RESOURCES: Record<string, { code: ErrorCode; what: string }> = {
  projectId: { code: 'project_not_found', what: 'Project' },
  searchId: { code: 'search_not_found', what: 'Search' },
  webhookId: { code: 'webhook_not_found', what: 'Webhook' },
  deliveryId: { code: 'delivery_not_found', what: 'Delivery' },
  profileId: { code: 'profile_not_found', what: 'Profile' },
  companyId: { code: 'company_not_found', what: 'Company' },
  monitorId: { code: 'monitor_not_found', what: 'Monitor' },
};

/**
 * Codes every route of this auth can answer: rate limit, key checks, body reading, server fault,
 * the database being unreachable (503 with Retry-After).
 */
export function commonErrorCodes(auth: RouteAuth, takesBody: boolean): ErrorCode[] {
  const key: ErrorCode[] =
    auth === 'none' ? [] : ['missing_api_key', 'invalid_api_key', 'api_access_disabled', ...(auth === 'any' ? [] : (['insufficient_scope'] as const))];
  const body: ErrorCode[] = takesBody ? ['invalid_request', 'payload_too_large', 'unsupported_media_type'] : [];
  return [...key, ...body, 'rate_limited', 'internal_error', 'service_unavailable'];
}

/** The error envelope of the spec. */
export const errorEnvelope = z
  .strictObject({
    error: z.strictObject({
      code: z.string().nullable().describe('Branch on this, never on the message'),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).nullable().describe('e.g. problems (validation), retry_after_seconds, required_scope'),
      request_id: z.string(),
    }),
    meta: z.strictObject({ request_id: z.string(), correlation_id: z.string().optional() }),
  })
  .meta({ id: 'Error' });
