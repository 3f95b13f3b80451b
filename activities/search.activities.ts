import { Context } from '@temporalio/activity';
import type { StopReason } from '../src/db/search.repository';
import { databaseProfileSource } from '../src/providers/database-profile-source';
import { claimSlot, completePass, failPass, processPage, type PassRef } from '../src/searches/pass';
import type { ActivityDeps } from './deps';

export function searchActivities({ db, config }: ActivityDeps) {
  const source = databaseProfileSource(db);
  const baseUrl = config.publicBaseUrl;
  return {
    claimSearchSlot: (ref: PassRef) => claimSlot(db, ref, baseUrl),
    async runSearchPage(ref: PassRef & { page: number }) {
      // Fault-injection knob for durability tests (0 in production): widens the window in which a
      // worker can be killed mid-pass.
      if (config.searchPageDelayMs > 0) await Context.current().sleep(config.searchPageDelayMs);
      return processPage(db, source, ref, () => Context.current().heartbeat(ref.page));
    },
    completeSearchPass: (ref: PassRef & { stopReason: StopReason }) => completePass(db, ref, baseUrl),
    failSearchPass: (ref: PassRef & { reason: string; stopReason?: StopReason }) => failPass(db, ref, baseUrl),
  };
}
