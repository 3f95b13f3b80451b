import type { Db } from './knex';

export interface HealthProbe {
  id: string;
  requested_at: Date;
  completed_at: Date | null;
  worker_identity: string | null;
}

export function healthProbeRepository(db: Db) {
  return {
    /** One trivial round trip: the database answers. */
    async ping(): Promise<void> {
      await db.raw('select 1');
    },
    async create(id: string): Promise<void> {
      await db('health_probes').insert({ id });
    },
    /** Idempotent: a retried activity leaves the first completion in place. */
    async complete(id: string, workerIdentity: string): Promise<HealthProbe> {
      const [row] = await db('health_probes')
        .where({ id })
        .update({ completed_at: db.raw('coalesce(completed_at, now())'), worker_identity: db.raw('coalesce(worker_identity, ?)', [workerIdentity]) })
        .returning('*');
      if (!row) throw new Error(`health probe ${id} does not exist`);
      return row as HealthProbe;
    },
    async find(id: string): Promise<HealthProbe | undefined> {
      return db('health_probes').where({ id }).first();
    },
    /** Probes are only interesting for a while; keep the table small. */
    async pruneOlderThan(hours: number): Promise<number> {
      return db('health_probes')
        .where('requested_at', '<', db.raw(`now() - make_interval(hours => ?)`, [hours]))
        .delete();
    },
  };
}
