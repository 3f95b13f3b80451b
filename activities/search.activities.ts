import { ApplicationFailure, Context } from '@temporalio/activity';
import type { StopReason } from '../src/db/search.repository';
import { databaseProfileSource } from '../src/providers/database-profile-source';
import { AppError } from '../src/domain/errors';
import { liveSourceForPass } from '../src/providers/live-profile-source';
import { ProviderError } from '../src/providers/provider-errors';
import { runDatabasePass } from '../src/searches/database-pass.service';
import { restartStrandedPasses } from '../src/searches/recovery.service';
import { claimSlot, completePass, failPass, processPage, waitingForSlot, type PassRef } from '../src/searches/pass.service';
import { applyScoring } from '../src/searches/rescoring.service';
import type { ActivityDeps } from './deps';

/**
 * A refusal by our own rules (AppError) is final: retrying it cannot succeed. A provider that
 * failed or was busy is retried by Temporal (its circuit breaker ends the retries when it keeps failing).
 */
async function finalOnRefusal<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ProviderError && err.retryable) throw err;
    if (err instanceof AppError) throw ApplicationFailure.nonRetryable(err.message, err.code ?? 'AppError', { status: err.status, details: err.details });
    throw err;
  }
}

export function searchActivities({ db, config }: ActivityDeps) {
  const source = databaseProfileSource(db);
  const baseUrl = config.publicBaseUrl;
  return {
    claimSearchSlot: (ref: PassRef) => finalOnRefusal(() => claimSlot(db, ref, baseUrl)),
    async runSearchPage(ref: PassRef & { page: number }) {
      // Fault-injection knob for durability tests (0 in production): widens the window in which a
      // worker can be killed mid-pass.
      if (config.searchPageDelayMs > 0) await Context.current().sleep(config.searchPageDelayMs);
      // A local activity (the search pass's steps) cannot heartbeat: the server knows no such task.
      const context = Context.current();
      const heartbeat = context.info.isLocal ? () => undefined : () => context.heartbeat(ref.page);
      return finalOnRefusal(async () => processPage(db, (await liveSourceForPass(db, config, ref, heartbeat)) ?? source, ref, heartbeat));
    },
    completeSearchPass: (ref: PassRef & { stopReason: StopReason }) => completePass(db, ref, baseUrl),
    failSearchPass: (ref: PassRef & { reason: string; stopReason?: StopReason }) => failPass(db, ref, baseUrl),
    /** The database pass, and the searches to wake now that it gives its slot back. */
    async runDatabasePass(ref: PassRef): Promise<{ rescored: number; refreshed: number; wake: string[] }> {
      return { ...(await runDatabasePass(db, ref, baseUrl)), wake: await waitingForSlot(db, ref.searchId) };
    },
    /** The stranded-pass sweep: starts passes booked while Temporal could not be reached. */
    restartStrandedPasses() {
      const ctx = Context.current();
      return restartStrandedPasses(db, { client: ctx.client, taskQueue: config.temporal.taskQueue });
    },
    // A refusal (e.g. the search started a new pass meanwhile) is final, not worth retrying.
    applyScoringChange: (input: { searchId: string; body: unknown; requestId: string }) => finalOnRefusal(() => applyScoring(db, { ...input, baseUrl })),
  };
}
