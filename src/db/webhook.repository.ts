import type { AttemptOutcome, AttemptTrigger, DeliveryStatus } from '../webhooks/contract';
import type { Db } from './knex';

export interface WebhookEndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  events: string[];
  secret_ciphertext: string;
  secret_last4: string;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  consecutive_abandons: number;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookDeliveryRow {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_retry_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  redeliveries: number;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}

export interface WebhookAttemptRow {
  id: string;
  delivery_id: string;
  number: number;
  attempt_key: string;
  trigger: AttemptTrigger;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  response_excerpt: string | null;
  created_at: Date;
}

/** What one attempt needs: the delivery's state, its endpoint, its event, and whether this attempt was recorded. */
export interface AttemptContext {
  delivery: Pick<WebhookDeliveryRow, 'status' | 'next_retry_at'>;
  endpoint: Pick<WebhookEndpointRow, 'id' | 'url' | 'enabled' | 'secret_ciphertext'>;
  event: { id: string; workspace_id: string; type: string; data: Record<string, unknown>; created_at: Date };
  alreadyAttempted: boolean;
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  excerpt: string | null;
}

export interface ClaimedEvent {
  id: string;
  workspace_id: string;
  type: string;
}

export interface UnstartedDelivery {
  id: string;
  workspace_id: string;
  event_id: string;
  event_type: string;
  /** The trace context the event was written in (outbox_events.trace_context). */
  trace_context: Record<string, string> | null;
}

export type EndpointChanges = Partial<Pick<WebhookEndpointRow, 'url' | 'events' | 'enabled'>>;

const DELIVERY_COLUMNS = ['d.*', 'e.type as event_type'];

export function webhookRepository(db: Db) {
  const deliveries = () => db('webhook_deliveries as d').join('outbox_events as e', 'e.id', 'd.event_id');

  return {
    // --- endpoints -------------------------------------------------------------------------

    /**
     * Inserts an endpoint unless the workspace already has `limit`. The workspace row lock makes
     * the count exact under concurrent creations. Returns null when the limit is reached.
     */
    async createWithinLimit(
      row: Pick<WebhookEndpointRow, 'id' | 'workspace_id' | 'url' | 'events' | 'secret_ciphertext' | 'secret_last4'>,
      limit: number,
    ): Promise<WebhookEndpointRow | null> {
      return db.transaction(async (trx) => {
        await trx('workspaces').where({ id: row.workspace_id }).forUpdate().first('id');
        const [{ n }] = await trx('webhook_endpoints').where({ workspace_id: row.workspace_id }).count({ n: '*' });
        if (Number(n) >= limit) return null;
        const [created] = await trx('webhook_endpoints')
          .insert({ ...row, events: JSON.stringify(row.events) })
          .returning('*');
        return created;
      });
    },
    async listForWorkspace(workspaceId: string): Promise<WebhookEndpointRow[]> {
      return db('webhook_endpoints')
        .where({ workspace_id: workspaceId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    async find(id: string): Promise<WebhookEndpointRow | undefined> {
      return db('webhook_endpoints').where({ id }).first();
    },
    async findInWorkspace(workspaceId: string, id: string): Promise<WebhookEndpointRow | undefined> {
      return db('webhook_endpoints').where({ workspace_id: workspaceId, id }).first();
    },
    /** Re-enabling clears the abandon count and the reason the service gave for turning it off. */
    /** The endpoint after the change; undefined when it no longer exists. */
    async update(id: string, changes: EndpointChanges): Promise<WebhookEndpointRow | undefined> {
      const patch: Record<string, unknown> = { updated_at: db.fn.now() };
      if (changes.url !== undefined) patch.url = changes.url;
      if (changes.events !== undefined) patch.events = JSON.stringify(changes.events);
      if (changes.enabled === true) Object.assign(patch, { enabled: true, consecutive_abandons: 0, disabled_reason: null, disabled_at: null });
      if (changes.enabled === false) Object.assign(patch, { enabled: false, disabled_at: db.raw('coalesce(disabled_at, now())') });
      const [row] = await db('webhook_endpoints').where({ id }).update(patch).returning('*');
      return row;
    },
    async delete(id: string): Promise<void> {
      await db('webhook_endpoints').where({ id }).delete();
    },
    /** Every endpoint's secret ciphertext, for `secrets reencrypt`. */
    async allSecretCiphertexts(): Promise<Pick<WebhookEndpointRow, 'id' | 'secret_ciphertext'>[]> {
      return db('webhook_endpoints').select('id', 'secret_ciphertext').orderBy('id');
    },
    async setSecretCiphertext(id: string, secretCiphertext: string): Promise<void> {
      await db('webhook_endpoints').where({ id }).update({ secret_ciphertext: secretCiphertext });
    },

    // --- deliveries ------------------------------------------------------------------------

    async listDeliveries(
      endpointId: string,
      opts: { status?: DeliveryStatus; limit: number; offset: number },
    ): Promise<{ deliveries: WebhookDeliveryRow[]; total: number }> {
      const filtered = () =>
        deliveries()
          .where('d.endpoint_id', endpointId)
          .modify((q) => (opts.status ? q.where('d.status', opts.status) : q));
      const [rows, [{ n }]] = await Promise.all([
        filtered()
          .select(DELIVERY_COLUMNS)
          .orderBy([
            { column: 'd.created_at', order: 'desc' },
            { column: 'd.id', order: 'desc' },
          ])
          .limit(opts.limit)
          .offset(opts.offset),
        filtered().count({ n: '*' }),
      ]);
      return { deliveries: rows, total: Number(n) };
    },
    async findDelivery(id: string): Promise<WebhookDeliveryRow | undefined> {
      return deliveries().where('d.id', id).first(DELIVERY_COLUMNS);
    },
    async findDeliveryOfEndpoint(endpointId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
      return deliveries().where({ 'd.id': id, 'd.endpoint_id': endpointId }).first(DELIVERY_COLUMNS);
    },
    async findDeliveryByEvent(eventId: string, endpointId: string): Promise<WebhookDeliveryRow | undefined> {
      return deliveries().where({ 'd.event_id': eventId, 'd.endpoint_id': endpointId }).first(DELIVERY_COLUMNS);
    },
    async attempts(deliveryId: string): Promise<WebhookAttemptRow[]> {
      return db('webhook_delivery_attempts').where({ delivery_id: deliveryId }).orderBy('number');
    },
    /** Numbers the one-attempt workflows of manual redeliveries (their ids must be unique). */
    async nextRedelivery(id: string): Promise<number> {
      const [row] = await db('webhook_deliveries').where({ id }).increment('redeliveries', 1).returning('redeliveries');
      return row.redeliveries;
    },

    // --- fan-out ---------------------------------------------------------------------------

    /** Undispatched events, oldest first, locked so a concurrent sweep skips them. Call in a transaction. */
    async claimUndispatched(limit: number, eventIds?: string[], taskQueue?: string): Promise<ClaimedEvent[]> {
      return db('outbox_events')
        .whereNull('dispatched_at')
        .modify((q) => (taskQueue ? q.where((w) => w.whereNull('dispatch_queue').orWhere('dispatch_queue', taskQueue)) : q))
        .modify((q) => (eventIds ? q.whereIn('id', eventIds) : q))
        .orderBy('created_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .select('id', 'workspace_id', 'type');
    },
    /**
     * One delivery per (event, enabled subscribed endpoint of its workspace that existed when the
     * event was written). `webhook.test` goes only to the endpoint it names. Set-based, so the
     * ids come from gen_random_uuid(); the unique (event, endpoint) makes a repeat a no-op.
     */
    async createDeliveries(eventIds: string[]): Promise<void> {
      await db.raw(
        `insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, status)
         select gen_random_uuid(), e.workspace_id, w.id, e.id, 'pending'
           from outbox_events e
           join webhook_endpoints w on w.workspace_id = e.workspace_id and w.enabled and w.created_at <= e.created_at
          where e.id = any(?::text[])
            and case when e.type = 'webhook.test' then w.id::text = e.data->>'webhook_id'
                     else w.events @> '["*"]'::jsonb or w.events @> jsonb_build_array(e.type) end
         on conflict (event_id, endpoint_id) do nothing`,
        [eventIds],
      );
    },
    /** Deliveries of these events not attempted yet: their workflows may not have started. */
    async unstartedDeliveries(eventIds: string[]): Promise<UnstartedDelivery[]> {
      return deliveries()
        .whereIn('d.event_id', eventIds)
        .where({ 'd.status': 'pending', 'd.attempt_count': 0 })
        .select('d.id', 'd.workspace_id', 'd.event_id', 'e.type as event_type', 'e.trace_context');
    },
    async markDispatched(eventIds: string[]): Promise<void> {
      await db('outbox_events').whereIn('id', eventIds).whereNull('dispatched_at').update({ dispatched_at: db.fn.now() });
    },

    // --- attempts --------------------------------------------------------------------------

    /** Everything one attempt needs, in one round trip (migration 0900); undefined once the delivery is gone. */
    async attemptContext(deliveryId: string, attemptKey: string): Promise<AttemptContext | undefined> {
      const { rows } = await db.raw('select * from webhook_attempt_context(?, ?)', [deliveryId, attemptKey]);
      const r = rows[0];
      if (!r) return undefined;
      return {
        delivery: { status: r.delivery_status, next_retry_at: r.next_retry_at },
        endpoint: { id: r.endpoint_id, url: r.endpoint_url, enabled: r.endpoint_enabled, secret_ciphertext: r.secret_ciphertext },
        event: { id: r.event_id, workspace_id: r.event_workspace_id, type: r.event_type, data: r.event_data, created_at: r.event_created_at },
        alreadyAttempted: r.already_attempted,
      };
    },
    /** A scheduled attempt that finds its endpoint off: no more attempts, and no abandon counted. */
    async stopForDisabledEndpoint(deliveryId: string): Promise<DeliveryStatus | undefined> {
      const [row] = await db('webhook_deliveries')
        .where({ id: deliveryId })
        .whereIn('status', ['pending', 'failed'])
        .update({ status: 'abandoned', next_retry_at: null, last_error: 'endpoint disabled; no more attempts', updated_at: db.fn.now() })
        .returning('status');
      return row?.status;
    },

    /**
     * Records an attempt and moves the delivery on, in one transaction under the delivery's row
     * lock (record_webhook_attempt, migration 0900). An abandon increments the endpoint's counter
     * atomically and turns the endpoint off at `disableAfter`; a delivered attempt resets it.
     */
    async recordAttempt(a: {
      deliveryId: string;
      attemptKey: string;
      trigger: AttemptTrigger;
      manualRedelivery: boolean;
      result: AttemptResult;
      retryInSeconds: number | null;
      isTest: boolean;
      disableAfter: number;
      disabledReason: string;
    }): Promise<AttemptOutcome> {
      const { result } = a;
      const { rows } = await db.raw('select * from record_webhook_attempt(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        a.deliveryId,
        a.attemptKey,
        a.trigger,
        a.manualRedelivery,
        result.ok,
        result.statusCode,
        result.error,
        Math.round(result.durationMs),
        result.excerpt,
        a.retryInSeconds,
        a.isTest,
        a.disableAfter,
        a.disabledReason,
      ]);
      return { status: rows[0].outcome_status, retry: rows[0].outcome_retry };
    },
  };
}
