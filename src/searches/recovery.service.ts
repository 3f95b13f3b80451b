import type { Db } from '../db/knex';
import { searchPassRepository } from '../db/search-pass.repository';
import type { TemporalTarget } from '../temporal/catalog';
import { startPass } from './start.service';

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
  const stranded = await searchPassRepository(db).stranded(STRANDED_AFTER_SECONDS, opts.searchIds);
  for (const search of stranded) await startPass(db, temporal, search, search.stranded_pass);
  return stranded.length;
}
