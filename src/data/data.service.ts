import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PriceName } from '../billing/data-prices';
import type { Config } from '../config';
import { costEventRepository } from '../db/cost-event.repository';
import { idempotencyKeyRepository } from '../db/idempotency-key.repository';
import type { Db } from '../db/knex';
import type { Workspace } from '../db/workspace.repository';
import { canonicalJson } from '../domain/criteria';
import { AppError, notFound } from '../domain/errors';
import { providersFor } from '../providers/resolution';
import type { CompanySearchBody, PeopleSearchBody, WebSearchBody } from './data.schemas';
import { companyProfileJson, companyResultsJson, peopleResultsJson, personProfileJson, webResultsJson } from './data.presenter';

/** Who calls, under which operation, and the idempotency key if any (header first, then body). */
export interface DataCaller {
  workspace: Pick<Workspace, 'id' | 'plan'>;
  keyId: string | null;
  /** The workspace's active credential providers, read with its key (KeyWithWorkspace). */
  credentialProviders?: readonly string[];
  requestId: string;
  idempotencyKey?: string;
}

export interface DataAnswer<T> {
  data: T;
  /** An idempotent replay: the first call's answer, billed nothing now. */
  replayed: boolean;
}

const POLL_MS = 50;

/**
 * One billed data call (DESIGN.md §9). Without an idempotency key: the provider call, then its
 * cost event. With one: the first caller claims the key (a pending row, leased), calls the
 * provider and stores the answer in the transaction of its cost event; a replay with the same
 * request gets that answer and no cost event; simultaneous identical calls wait for the first
 * (one upstream call); a different request under the key is 409. A failed call gives the key back
 * and bills nothing.
 */
export async function billedCall<T extends { source: string }>(
  db: Db,
  config: Config,
  caller: DataCaller,
  operation: { action: string; price: PriceName; request: unknown },
  produce: () => Promise<T>,
): Promise<DataAnswer<T>> {
  const bill = async (trx: Db, data: T) =>
    costEventRepository(trx).record({
      workspaceId: caller.workspace.id,
      requestId: caller.requestId,
      action: operation.action,
      keyId: caller.keyId,
      usd: { plan: caller.workspace.plan, price: operation.price },
      units: 1,
      provider: data.source,
      uniqueKey: caller.idempotencyKey ? `data:${caller.workspace.id}:${caller.idempotencyKey}` : undefined,
    });

  const key = caller.idempotencyKey;
  if (!key) {
    const data = await produce();
    await bill(db, data);
    return { data, replayed: false };
  }

  const keys = idempotencyKeyRepository(db);
  const bodyHash = createHash('sha256').update(canonicalJson(operation.request)).digest('hex');
  // The first caller's lease covers its whole call: a slot wait plus the upstream timeout.
  const leaseMs = config.providerLimits.slotWaitMs + config.providerLimits.timeoutMs + 5_000;
  let claimed = await keys.claim({ workspace_id: caller.workspace.id, key, route: operation.action, body_hash: bodyHash }, leaseMs);
  while (!claimed) {
    const stored = await keys.find(caller.workspace.id, key);
    if (stored) {
      if (stored.route !== operation.action || stored.body_hash !== bodyHash) {
        throw new AppError('idempotency_key_reused', 409, 'This idempotency key was used for a different request; nothing was called or billed');
      }
      if (stored.state === 'done') return { data: stored.response as T, replayed: true };
      claimed = await keys.takeOver(caller.workspace.id, key, leaseMs);
      if (!claimed) await sleep(POLL_MS);
    } else {
      // The first caller failed and gave the key back: this call tries again.
      claimed = await keys.claim({ workspace_id: caller.workspace.id, key, route: operation.action, body_hash: bodyHash }, leaseMs);
    }
  }
  let data: T;
  try {
    data = await produce();
  } catch (err) {
    await keys.release(caller.workspace.id, key);
    throw err;
  }
  await db.transaction(async (trx) => {
    await bill(trx, data);
    await idempotencyKeyRepository(trx).complete(caller.workspace.id, key, 200, data);
  });
  return { data, replayed: false };
}

/** The caller's profile data source (their credential, the server key or built-in, DESIGN.md §9). */
const profileDataFor = (db: Db, config: Config, caller: DataCaller) => providersFor(db, config).profileData(caller.workspace.id, caller.credentialProviders);

export function searchWeb(db: Db, config: Config, caller: DataCaller, body: WebSearchBody) {
  const { idempotencyKey: _key, ...request } = body;
  return billedCall(db, config, caller, { action: 'search_web', price: 'web_search', request }, async () => {
    const provider = await providersFor(db, config).webSearch(caller.workspace.id, caller.credentialProviders);
    return webResultsJson(await provider.search(body.query, body.count), provider.source);
  });
}

export function searchPeople(db: Db, config: Config, caller: DataCaller, body: PeopleSearchBody) {
  const { idempotencyKey: _key, ...request } = body;
  return billedCall(db, config, caller, { action: 'search_people', price: 'people_search', request }, async () => {
    const provider = await profileDataFor(db, config, caller);
    return peopleResultsJson(await provider.searchPeople(request), provider.source);
  });
}

export function readPerson(db: Db, config: Config, caller: DataCaller, profileId: string) {
  return billedCall(db, config, caller, { action: 'get_person', price: 'people_read', request: { profileId } }, async () => {
    const provider = await profileDataFor(db, config, caller);
    const profile = await provider.enrichPerson(profileId);
    if (!profile) throw notFound('profile_not_found', 'Profile');
    return personProfileJson(profile, provider.source);
  });
}

export function searchCompanies(db: Db, config: Config, caller: DataCaller, body: CompanySearchBody) {
  const { idempotencyKey: _key, ...request } = body;
  return billedCall(db, config, caller, { action: 'search_companies', price: 'company_search', request }, async () => {
    const provider = await profileDataFor(db, config, caller);
    return companyResultsJson(await provider.searchCompanies(request), provider.source);
  });
}

export function readCompany(db: Db, config: Config, caller: DataCaller, companyId: string) {
  return billedCall(db, config, caller, { action: 'get_company', price: 'company_read', request: { companyId } }, async () => {
    const provider = await profileDataFor(db, config, caller);
    const company = await provider.enrichCompany(companyId);
    if (!company) throw notFound('company_not_found', 'Company');
    return companyProfileJson(company, provider.source);
  });
}
