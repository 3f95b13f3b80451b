import { setTimeout as sleep } from 'node:timers/promises';
import type { PriceName } from '../billing/data-prices';
import type { Config } from '../config';
import { personRow } from '../corpus/loader';
import { costEventRepository } from '../db/cost-event.repository';
import type { Db } from '../db/knex';
import { liveSearchPagesRepository } from '../db/live-search-pages.repository';
import { peopleRepository } from '../db/people.repository';
import { searchPassRepository } from '../db/search-pass.repository';
import { searchRepository } from '../db/search.repository';
import { workspaceRepository } from '../db/workspace.repository';
import type { PersonProfile } from '../domain/profile';
import type { LiveProfileDataProvider } from './capabilities';
import { circuitBreaker, type CircuitBreaker } from './circuit-breaker';
import { peopleDataLabsProvider } from './peopledatalabs';
import { ProviderError, providerUnavailable } from './provider-errors';
import type { ProfileSource } from './profile-source';
import { providersFor, resolveSource } from './resolution';

const PROVIDER = 'peopledatalabs' as const;
/** People from People Data Labs are stored under `pdl:<pdl id>`, apart from the corpus's ids. */
export const LIVE_ID_PREFIX = 'pdl:';

/** Cost-event keys of a live pass: one per billed provider call, so a retried activity bills once. */
export const liveCostKeys = {
  page: (searchId: string, pass: number, page: number) => `search:${searchId}:pass:${pass}:page:${page}`,
  read: (searchId: string, pass: number, personId: string) => `search:${searchId}:pass:${pass}:enrich:${personId}`,
};

export interface LivePass {
  workspaceId: string;
  /** The key that launched the search: its cost events carry it. */
  keyId: string | null;
  plan: string | null;
  searchId: string;
  pass: number;
}

/** Runs `work` over `items` with at most `limit` at once; after a failure starts no more, lets the running ones end, then throws it. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const lane = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await work(item);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw (failure as { err: unknown }).err;
}

const BUSY_ATTEMPTS = 5;
const BUSY_PAUSE_MAX_MS = 5_000;

/**
 * Other passes hold the shared enrichment slots, or PDL said 429: wait as told (heartbeating)
 * and try again a few times before the page activity fails and Temporal retries it.
 */
async function whileBusy<T>(call: () => Promise<T>, heartbeat: () => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ProviderError && err.code === 'network_busy') || attempt >= BUSY_ATTEMPTS) throw err;
      const seconds = Number((err.details as { retry_after_seconds?: number } | null)?.retry_after_seconds ?? 1);
      heartbeat();
      await sleep(Math.min(BUSY_PAUSE_MAX_MS, seconds * 1000));
    }
  }
}

/**
 * A live pass's profile source (DESIGN.md §9): pages of People Data Labs' person search, and
 * profiles read by enrichment under the shared concurrency limit. Each page is kept and each
 * enriched profile stored in the people database (so database passes can re-score it), each
 * together with its cost event in one transaction: a resumed or retried activity finds them there
 * and neither calls the provider for them again nor bills them twice. Calls go through the
 * circuit breaker.
 */
export function liveProfileSource(
  db: Db,
  config: Config,
  deps: { provider: LiveProfileDataProvider; breaker: CircuitBreaker; pass: LivePass; heartbeat: () => void },
): ProfileSource {
  const { provider, breaker, pass, heartbeat } = deps;
  const costs = costEventRepository(db);
  // Priced by the plan (DESIGN.md §9) in the cost event's insert.
  const bill = (trx: Db, action: string, price: PriceName, uniqueKey: string) =>
    costEventRepository(trx).record({
      workspaceId: pass.workspaceId,
      requestId: null,
      action,
      keyId: pass.keyId,
      usd: { plan: pass.plan, price },
      provider: PROVIDER,
      uniqueKey,
    });

  return {
    name: PROVIDER,
    billedReadBatch: config.providerLimits.peopleDataLabsConcurrency,
    async searchPage(criteria, page, pageSize) {
      // Fetched by an earlier attempt of this page (retried or resumed): not asked for or billed again.
      const kept = await liveSearchPagesRepository(db).find(pass.searchId, pass.pass, page);
      if (kept) return kept;
      await breaker.ensureClosed(PROVIDER);
      // PDL filters and ranks on the criteria (personCriteriaQuery), so page 0 holds the best matches.
      const answer = await breaker.call(PROVIDER, () => provider.searchPeopleByCriteria({ criteria, limit: pageSize, offset: page * pageSize }));
      const results = answer.results.map((r) => ({ ...r, person_id: LIVE_ID_PREFIX + r.person_id }));
      await db.transaction(async (trx) => {
        await liveSearchPagesRepository(trx).insert(pass.searchId, pass.pass, page, results);
        // PDL bills a search that found people; one that matched nothing (its 404) is free.
        if (results.length) await bill(trx, 'search_live_page', 'people_search', liveCostKeys.page(pass.searchId, pass.pass, page));
      });
      return results;
    },

    async readProfiles(personIds) {
      const out = new Map<string, PersonProfile>();
      const toRead: string[] = [];
      for (const id of personIds) {
        // Read (and billed) by an earlier attempt of this pass: take the stored profile.
        if (await costs.findByUniqueKey(liveCostKeys.read(pass.searchId, pass.pass, id))) continue;
        toRead.push(id);
      }
      const stored = await peopleRepository(db).profiles(personIds.filter((id) => !toRead.includes(id)));
      for (const [id, profile] of stored) out.set(id, profile);
      if (toRead.length === 0) return out;

      await breaker.ensureClosed(PROVIDER);
      await eachLimited(toRead, config.providerLimits.peopleDataLabsConcurrency, async (id) => {
        const found = await whileBusy(() => breaker.call(PROVIDER, () => provider.enrichPerson(id.slice(LIVE_ID_PREFIX.length))), heartbeat);
        heartbeat();
        if (!found) return; // PDL no longer has them (404): not billed, not read
        const profile: PersonProfile = { ...found, id, years_experience: Math.round(found.years_experience) };
        await db.transaction(async (trx) => {
          await peopleRepository(trx).upsert([{ row: personRow(profile), profile }]);
          await bill(trx, 'search_live_read', 'people_read', liveCostKeys.read(pass.searchId, pass.pass, id));
        });
        out.set(id, profile);
      });
      return out;
    },
  };
}

/**
 * The live source of a search pass, or null when the pass searches the people database. The key
 * is resolved again for every page (a workspace may change its credential); without one the pass
 * cannot go on: 424 provider_unavailable.
 */
export async function liveSourceForPass(db: Db, config: Config, ref: { searchId: string; pass: number }, heartbeat: () => void): Promise<ProfileSource | null> {
  const passRow = await searchPassRepository(db).find(ref.searchId, ref.pass);
  if (passRow?.criteria.mode !== 'live') return null;
  const search = (await searchRepository(db).find(ref.searchId))!;
  const workspace = await workspaceRepository(db).find(search.workspace_id);
  const choice = await resolveSource(db, config, search.workspace_id, 'profile_data');
  if (choice.kind !== 'vendor') throw providerUnavailable('live search', [PROVIDER]);
  const provider = peopleDataLabsProvider({
    baseUrl: config.providers[PROVIDER].baseUrl,
    apiKey: choice.apiKey,
    timeoutMs: config.providerLimits.timeoutMs,
    limiter: providersFor(db, config).limiter,
  });
  return liveProfileSource(db, config, {
    provider,
    breaker: circuitBreaker(db, config),
    pass: { workspaceId: search.workspace_id, keyId: search.api_key_id, plan: workspace?.plan ?? null, searchId: ref.searchId, pass: ref.pass },
    heartbeat,
  });
}
