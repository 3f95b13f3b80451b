import type { Db } from '../db/knex';
import type { SearchRow } from '../db/search.repository';
import type { TemporalTarget } from '../temporal/catalog';
import { startPass } from './start';

/** A pass booked this long ago whose workflow has not started is stranded (a live start takes ms). */
export const STRANDED_AFTER_SECONDS = 60;

/**
 * Run every minute by the `stranded-pass-sweep-<task queue>` Schedule (src/temporal/catalog.ts).
 * Starts the workflows of stranded passes: booked (credit reserved, search queued or running) but
 * never started, because Temporal was unreachable when the API answered 503 or the API process
 * died in between. Starting is idempotent, so a pass whose start did happen (only its record was
 * lost) is merely marked. `searchIds` narrows the sweep (tests share one database). Returns how
 * many passes it started or marked.
 */
export async function restartStrandedPasses(db: Db, temporal: TemporalTarget, opts: { searchIds?: string[] } = {}): Promise<number> {
  const stranded: (SearchRow & { stranded_pass: number })[] = await db('search_passes as p')
    .join('searches as s', 's.id', 'p.search_id')
    .whereNull('p.workflow_started_at')
    .whereNotNull('p.workflow_id')
    .whereIn('p.status', ['queued', 'running'])
    .where('p.created_at', '<', db.raw('now() - make_interval(secs => ?)', [STRANDED_AFTER_SECONDS]))
    .modify((q) => (opts.searchIds ? q.whereIn('p.search_id', opts.searchIds) : q))
    .orderBy('p.created_at')
    .limit(100)
    .select('s.*', 'p.pass as stranded_pass');
  for (const search of stranded) await startPass(db, temporal, search, search.stranded_pass);
  return stranded.length;
}
