import type { CreditBucket } from './credit-ledger.repository';
import type { Db } from './knex';

export type TopUpStatus = 'open' | 'paid' | 'expired';

export interface TopUpRow {
  id: string;
  workspace_id: string;
  api_key_id: string | null;
  request_id: string | null;
  plan: string;
  /** Decimal strings, as Postgres numeric comes back. */
  amount_usd: string;
  usd_per_credit: string;
  shortlists: number;
  bucket: CreditBucket;
  provider: 'test' | 'stripe';
  test_mode: boolean;
  status: TopUpStatus;
  checkout_url: string;
  checkout_token: string | null;
  provider_ref: string | null;
  workflow_id: string;
  created_at: Date;
  expires_at: Date;
  paid_at: Date | null;
  granted_at: Date | null;
  expired_at: Date | null;
}

export type NewTopUp = Omit<TopUpRow, 'status' | 'created_at' | 'expires_at' | 'paid_at' | 'granted_at' | 'expired_at'> & { expiresInSeconds: number };

export const MAX_TOP_UPS_LISTED = 200;

export function topUpRepository(db: Db) {
  return {
    async insert({ expiresInSeconds, ...row }: NewTopUp): Promise<TopUpRow> {
      const [created] = await db('top_ups')
        .insert({ ...row, status: 'open', expires_at: db.raw(`now() + make_interval(secs => ?)`, [expiresInSeconds]) })
        .returning('*');
      return created;
    },
    find(id: string): Promise<TopUpRow | undefined> {
      return db('top_ups').where({ id }).first();
    },
    findByToken(token: string): Promise<TopUpRow | undefined> {
      return db('top_ups').where({ checkout_token: token }).first();
    },
    findForUpdate(id: string): Promise<TopUpRow | undefined> {
      return db('top_ups').where({ id }).forUpdate().first();
    },
    /**
     * Records the payment: open → paid, only while the top-up has not expired. Returns the row when
     * this call made the change, undefined when it was already paid, expired or unknown.
     */
    async markPaid(id: string): Promise<TopUpRow | undefined> {
      const [row] = await db('top_ups')
        .where({ id, status: 'open' })
        .andWhere('expires_at', '>', db.fn.now())
        .update({ status: 'paid', paid_at: db.fn.now() })
        .returning('*');
      return row;
    },
    /** open → expired; returns the row as it is afterwards (a paid one stays paid). */
    async expire(id: string): Promise<TopUpRow | undefined> {
      const [row] = await db('top_ups').where({ id, status: 'open' }).update({ status: 'expired', expired_at: db.fn.now() }).returning('*');
      return row ?? (await db('top_ups').where({ id }).first());
    },
    async markGranted(id: string): Promise<void> {
      await db('top_ups').where({ id }).whereNull('granted_at').update({ granted_at: db.fn.now() });
    },
    async listForWorkspace(workspaceId: string, limit = MAX_TOP_UPS_LISTED): Promise<{ topUps: TopUpRow[]; total: number }> {
      const [topUps, [{ total }]] = await Promise.all([
        db('top_ups')
          .where({ workspace_id: workspaceId })
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(limit),
        db('top_ups').where({ workspace_id: workspaceId }).count({ total: '*' }),
      ]);
      return { topUps, total: Number(total) };
    },
    /** Why a recorded Stripe event granted nothing (its session does not match the top-up). */
    async refuseStripeEvent(eventId: string, refusal: string): Promise<void> {
      await db('stripe_events').where({ id: eventId }).update({ refusal });
    },
    /** Records a Stripe event id; false when it was seen before (a redelivery). */
    async recordStripeEvent(event: { id: string; type: string; topUpId: string | null }): Promise<boolean> {
      const rows = await db('stripe_events').insert({ id: event.id, type: event.type, top_up_id: event.topUpId }).onConflict('id').ignore().returning('id');
      return rows.length > 0;
    },
  };
}
