import createOpenApiClient, { type Client, type Middleware } from 'openapi-fetch';
import { randomUUID } from 'node:crypto';
import { retryAfterSeconds, SourcingApiError } from './errors';
import { operations, type OperationName } from './operations.generated';
import type { components, paths } from './schema';

export const DEFAULT_BASE_URL = 'http://localhost:3000/v1';

type Schemas = components['schemas'];
export type Project = Schemas['Project'];
export type Search = Schemas['Search'];
export type LaunchedSearch = Schemas['LaunchedSearch'];
export type LaunchSearchBody = Schemas['LaunchSearch'];
export type Person = Schemas['Person'];
export type ShortlistMember = Schemas['ShortlistMember'];
export type ShortlistMembersAdded = Schemas['ShortlistMembersAdded'];

export interface RetryOptions {
  /** Attempts in all, the first included (default 4). */
  maxAttempts: number;
  /** First backoff after a 5xx or a lost response; doubles each time (default 500 ms). */
  baseDelayMs: number;
  /** No wait is longer, a Retry-After included (default 60 s). */
  maxDelayMs: number;
}

export interface ClientOptions {
  /** Default: SOURCING_API_KEY. */
  apiKey?: string;
  /** Default: SOURCING_BASE_URL, else http://localhost:3000/v1. */
  baseUrl?: string;
  /** `false`: no retries at all. */
  retries?: Partial<RetryOptions> | false;
  /** The fetch to send with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * Safe to send again beyond GETs and idempotency-keyed calls (spec "Retry safety"). Anything
 * else — creating a project, expanding a project — is sent once: a lost answer is the caller's
 * to resolve.
 */
const RETRY_SAFE_OPERATIONS: ReadonlySet<OperationName> = new Set([
  'preview_scoring',
  'apply_scoring',
  'run_database_pass',
  // A rating equal to the stored one changes nothing.
  'submit_feedback',
  'add_shortlist_members',
  'remove_shortlist_member',
]);

const operationsByRoute = new Map(Object.entries(operations).map(([name, op]) => [`${op.method} ${op.path}`, { name: name as OperationName, ...op }]));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The input of `invoke`: path and query values, the JSON body, and an Idempotency-Key when the call takes one. */
export interface InvokeInput {
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  idempotencyKey?: string;
}

export interface PeopleOptions {
  minScore?: number;
  /** People per request (1 to 500, default 100). */
  pageSize?: number;
  /** false leaves out the full profiles (default true). */
  profile?: boolean;
}

export interface WaitOptions {
  /** Give up (SourcingApiError `wait_timeout`) after this long (default 10 minutes). */
  timeoutMs?: number;
  /** Polls start this often and back off up to `maxIntervalMs` (defaults 250 ms and 5 s). */
  intervalMs?: number;
  maxIntervalMs?: number;
}

export type SourcingClient = ReturnType<typeof createClient>;

/**
 * A client of the key API. `api` is the typed openapi-fetch client (every operation, typed from
 * the OpenAPI document); the methods beside it answer the `data` of a success and throw
 * SourcingApiError otherwise. Every call — through `api` too — gets an Idempotency-Key when its
 * operation takes one and none was given (the same key on every retry of that call), and safe
 * calls are retried: 429 and 503 after Retry-After, other 5xx and lost responses with backoff.
 */
export function createClient(options: ClientOptions = {}) {
  const apiKey = options.apiKey ?? process.env.SOURCING_API_KEY;
  const baseUrl = (options.baseUrl ?? process.env.SOURCING_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const retry: RetryOptions | null = options.retries === false ? null : { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 60_000, ...options.retries };
  const send = options.fetch ?? ((request: Request) => fetch(request));

  /** Requests that may be sent again (set by the middleware, which knows the operation). */
  const retrySafe = new WeakSet<Request>();
  const operationMiddleware: Middleware = {
    onRequest({ request, schemaPath }) {
      const op = operationsByRoute.get(`${request.method} ${schemaPath}`);
      if (op?.idempotencyKey && !request.headers.get('Idempotency-Key')) request.headers.set('Idempotency-Key', `sdk-${randomUUID()}`);
      if (request.method === 'GET' || op?.idempotencyKey || (op && RETRY_SAFE_OPERATIONS.has(op.name))) retrySafe.add(request);
      return request;
    },
  };

  async function sendWithRetries(request: Request): Promise<Response> {
    const attempts = retry && retrySafe.has(request) ? retry.maxAttempts : 1;
    for (let attempt = 1; ; attempt += 1) {
      // A clone per attempt: the body of a sent request cannot be read again.
      const last = attempt >= attempts;
      let response: Response;
      try {
        response = await send(last ? request : request.clone());
      } catch (err) {
        // No answer (a reset connection, a lost response): the call may have been done, so only safe calls go again.
        if (last) throw err;
        await sleep(backoff(attempt));
        continue;
      }
      if (last || (response.status !== 429 && response.status < 500)) return response;
      const waitSeconds = response.status === 429 || response.status === 503 ? retryAfterSeconds(response) : null;
      await response.body?.cancel();
      await sleep(waitSeconds !== null ? Math.min(waitSeconds * 1000, retry!.maxDelayMs) : backoff(attempt));
    }
  }

  /** Exponential with full jitter, so many clients do not come back at the same moment. */
  const backoff = (attempt: number) => Math.random() * Math.min(retry!.maxDelayMs, retry!.baseDelayMs * 2 ** (attempt - 1));

  const api: Client<paths> = createOpenApiClient<paths>({
    baseUrl,
    headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
    fetch: sendWithRetries,
  });
  api.use(operationMiddleware);

  /** The success payload, or the error answer as a SourcingApiError. */
  async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok || data === undefined) throw SourcingApiError.from(response, error);
    return data;
  }

  const client = {
    api,
    baseUrl,

    /**
     * Any operation by its catalog name (GET /actions), e.g. `invoke('create_webhook', { body })`.
     * Answers the whole JSON body (`data` and `meta`), or the text of a CSV export.
     */
    async invoke(name: OperationName, input: InvokeInput = {}): Promise<unknown> {
      const op = operations[name];
      if (!op) throw new Error(`unknown operation ${String(name)}`);
      // The operation is chosen at run time, so the typed per-path signatures cannot apply here.
      const request = api.request as unknown as (method: string, path: string, init: Record<string, unknown>) => ReturnType<typeof api.GET>;
      return unwrap(
        request(op.method.toLowerCase(), op.path, {
          params: { path: input.path, query: input.query, header: input.idempotencyKey ? { 'Idempotency-Key': input.idempotencyKey } : undefined },
          body: op.method === 'GET' || op.method === 'DELETE' ? undefined : (input.body ?? {}),
          parseAs: op.response,
        }),
      );
    },

    async createProject(name: string): Promise<Project> {
      return (await unwrap(api.POST('/projects', { body: { name } }))).data;
    },

    /** Launch a search. Without `idempotencyKey` one is made, and kept across this call's retries. */
    async launchSearch(projectId: string, body: LaunchSearchBody, opts: { idempotencyKey?: string } = {}): Promise<LaunchedSearch> {
      const idempotencyKey = opts.idempotencyKey ?? `sdk-${randomUUID()}`;
      return (
        await unwrap(api.POST('/projects/{projectId}/searches', { params: { path: { projectId }, header: { 'Idempotency-Key': idempotencyKey } }, body }))
      ).data;
    },

    async getSearch(searchId: string): Promise<Search> {
      return (await unwrap(api.GET('/searches/{searchId}', { params: { path: { searchId } } }))).data;
    },

    /** Polls the search, backing off, until it is complete or failed. */
    async waitForSearch(searchId: string, opts: WaitOptions = {}): Promise<Search> {
      const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
      let interval = opts.intervalMs ?? 250;
      for (;;) {
        const search = await client.getSearch(searchId);
        if (search.status === 'complete' || search.status === 'failed') return search;
        if (Date.now() + interval > deadline) {
          throw new SourcingApiError(0, 'wait_timeout', `search ${searchId} is still ${search.status}`, { status: search.status }, null);
        }
        await sleep(interval);
        interval = Math.min(interval * 1.5, opts.maxIntervalMs ?? 5000);
      }
    },

    /** Every scored person of the search, best first, page by page until an empty page. */
    async *people(searchId: string, opts: PeopleOptions = {}): AsyncGenerator<Person> {
      const limit = opts.pageSize ?? 100;
      for (let offset = 0; ;) {
        const query = { limit, offset, ...(opts.minScore !== undefined ? { min_score: opts.minScore } : {}), profile: opts.profile ?? true };
        const page = (await unwrap(api.GET('/searches/{searchId}/people', { params: { path: { searchId }, query } }))).data;
        if (page.people.length === 0) return;
        yield* page.people;
        offset += page.people.length;
      }
    },

    async addToShortlist(projectId: string, candidateIds: string[]): Promise<ShortlistMembersAdded> {
      return (await unwrap(api.POST('/projects/{projectId}/shortlist/members', { params: { path: { projectId } }, body: { candidate_ids: candidateIds } })))
        .data;
    },

    async getShortlist(projectId: string): Promise<ShortlistMember[]> {
      return (await unwrap(api.GET('/projects/{projectId}/shortlist', { params: { path: { projectId } } }))).data;
    },
  };
  return client;
}
