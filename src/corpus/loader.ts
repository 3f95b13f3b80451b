import { companiesRepository } from '../db/companies.repository';
import type { Db } from '../db/knex';
import { peopleBulkRepository, peopleCopyLine, profileCopyLine } from '../db/people-bulk.repository';
import { peopleRepository, type PersonRow } from '../db/people.repository';
import type { PersonProfile } from '../domain/profile';
import { geoCell, regionKey } from '../ranking/location';
import { COMPANY_COUNT, companyRecord } from './company-directory';
import { createPersonGenerator, GENERATOR_VERSION, type PersonGenerator } from './generator';
import { createWebPageGenerator, DEFAULT_WEB_PAGES } from './web-pages';
import { webPagesRepository } from '../db/web-pages.repository';

/** Half of the role families (as many as the corpus had before the open world), half of other occupations. */
export const DEFAULT_CORPUS_SIZE = 200_000;
export const DEFAULT_CORPUS_SEED = 42;
/** People generated and copied per step (the progress bar moves by this much). */
const CHUNK = 10_000;
/** Rows per insert of companies. */
const BATCH = 1_000;
/** Loads adding at least this many people drop and rebuild the people indexes around the copy. */
const REBUILD_INDEXES_FROM = 100_000;

export interface LoadProgress {
  loaded: number;
  total: number;
  perSecond: number;
}

/** The people-table row of a profile: the filter and result-list columns (the profile goes to people_profiles). */
export function personRow(p: PersonProfile): PersonRow {
  return {
    id: p.id,
    first_name: p.first_name,
    last_name: p.last_name,
    title: p.title,
    seniority: p.seniority,
    family: p.family,
    company: p.company,
    industry: p.industry,
    metro: p.metro,
    country: p.location.country,
    region_key: p.location.region ? regionKey(p.location.country, p.location.region) : '',
    lat: p.location.lat,
    lon: p.location.lon,
    geo_cell: p.location.lat !== null && p.location.lon !== null ? geoCell(p.location.lat, p.location.lon) : null,
    location: p.location.name,
    onet_code: p.occupation?.onet_code ?? null,
    network_url: p.network_url,
    open_profile: p.open_profile,
    premium: p.premium,
    years_experience: p.years_experience,
    skills: p.skills,
    skills_text: p.skills.join(' '),
    summary: p.summary,
    updated_at: p.updated_at,
  };
}

/**
 * Loads people 0..size-1 of the seeded corpus through `COPY … FROM STDIN` (see
 * peopleBulkRepository), in one transaction. The same seed gives the same people, so loading again
 * is a no-op for rows already there, and a larger size only adds the rest. Generating the next
 * chunk overlaps Postgres ingesting the previous one: the two cores work at the same time.
 */
export async function loadCorpus(
  db: Db,
  opts: { size: number; seed: number; pages?: number; onProgress?: (p: LoadProgress) => void; onPagesProgress?: (p: LoadProgress) => void },
): Promise<{ inserted: number; pages: number }> {
  const generator = createPersonGenerator(opts.seed);
  const started = Date.now();
  // People written by an older generator are another corpus: they go, the new one is loaded.
  const bulk = peopleBulkRepository(db);
  if ((await bulk.corpusVersion()) !== GENERATOR_VERSION) await bulk.replaceCorpusVersion(GENERATOR_VERSION);
  const before = await peopleRepository(db).count();
  // Rebuilding the indexes costs a pass over the whole table: worth it when the load is big and
  // at least as large as what is already there.
  const rebuildIndexes = opts.size - before >= REBUILD_INDEXES_FROM && opts.size - before >= before;
  let inserted = 0;
  const report = (loaded: number) =>
    opts.onProgress?.({ loaded, total: opts.size, perSecond: Math.round(loaded / Math.max(0.001, (Date.now() - started) / 1000)) });
  // People are written grouped by role family: a search of a family (and its neighbours) reads
  // contiguous pages of the table instead of all of them.
  const order = familyOrder(generator, before, opts.size);
  await bulk.load({ rebuildIndexes }, async (loader) => {
    let copying: Promise<void> = Promise.resolve();
    for (let from = 0; from < order.length; from += CHUNK) {
      const to = Math.min(order.length, from + CHUNK);
      const chunk = await generateChunk(generator, order.subarray(from, to));
      await copying;
      const have = before > 0 ? await loader.existing(chunk.ids) : new Set<string>();
      const keep = (_: string, i: number) => !have.has(chunk.ids[i]);
      const [people, profiles] = [chunk.people.filter(keep), chunk.profiles.filter(keep)];
      copying = loader.copy(people, profiles).then(() => {
        inserted += people.length;
        report(before + to);
      });
      // Awaited on the next turn; until then a failure must not count as unhandled.
      copying.catch(() => undefined);
    }
    await copying;
  });
  await peopleRepository(db).analyze();
  await loadCompanies(db);
  const pages = await loadWebPages(db, { size: opts.pages ?? Math.min(DEFAULT_WEB_PAGES, opts.size), seed: opts.seed, onProgress: opts.onPagesProgress });
  return { inserted, pages };
}

/** The built-in companies and web pages alone (for databases loaded before they existed). */
export async function loadBuiltinSources(db: Db, seed: number, pages = DEFAULT_WEB_PAGES): Promise<void> {
  await loadCompanies(db);
  await loadWebPages(db, { size: pages, seed });
}

/**
 * Pages 0..size-1 of the built-in web (bios of the seed's people, company sites, news) through
 * `COPY … FROM STDIN` (see webPagesRepository.copyMissing); pages already there are kept, so a
 * re-run adds nothing and a larger size only adds the rest.
 */
export async function loadWebPages(db: Db, opts: { size: number; seed: number; onProgress?: (p: LoadProgress) => void }): Promise<number> {
  const pages = webPagesRepository(db);
  if ((await pages.count()) >= opts.size) return 0;
  const generator = createWebPageGenerator(opts.seed);
  const started = Date.now();
  const inserted = await pages.copyMissing(
    opts.size,
    (i) => generator.page(i),
    (loaded) => opts.onProgress?.({ loaded, total: opts.size, perSecond: Math.round(loaded / Math.max(0.001, (Date.now() - started) / 1000)) }),
  );
  await pages.vacuumAnalyze();
  return inserted;
}

/** The built-in company directory (every company the people work at); idempotent. */
export async function loadCompanies(db: Db): Promise<number> {
  const companies = companiesRepository(db);
  let inserted = 0;
  for (let from = 0; from < COMPANY_COUNT; from += BATCH) {
    const rows = [];
    for (let i = from; i < Math.min(COMPANY_COUNT, from + BATCH); i++) rows.push(companyRecord(i));
    inserted += await companies.insertMissing(rows);
  }
  if (inserted) await companies.analyze();
  return inserted;
}

/**
 * The indices from..size-1 in load order: by role family (outside the families last), then index.
 * Indices below `from` are loaded already (a larger corpus adds the rest after them).
 */
function familyOrder(generator: PersonGenerator, from: number, size: number): Int32Array {
  const n = Math.max(0, size - from);
  const rank = new Map<string, number>();
  const ranks = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const family = generator.familyOf(from + k);
    let r = rank.get(family);
    if (r === undefined) rank.set(family, (r = family === '' ? 1_000_000 : rank.size));
    ranks[k] = r;
  }
  const order = Int32Array.from({ length: n }, (_, k) => from + k);
  return order.sort((a, b) => ranks[a - from] - ranks[b - from] || a - b);
}

/** The people of these indices as COPY lines, yielding to the event loop now and then so the running COPY keeps streaming. */
async function generateChunk(generator: PersonGenerator, indices: Int32Array) {
  const ids: string[] = [];
  const people: string[] = [];
  const profiles: string[] = [];
  for (let k = 0; k < indices.length; k++) {
    const p = generator.person(indices[k]);
    ids.push(p.id);
    people.push(peopleCopyLine(personRow(p)));
    profiles.push(profileCopyLine(p.id, JSON.stringify(p)));
    if (k % 500 === 499) await new Promise((r) => setImmediate(r));
  }
  return { ids, people, profiles };
}

/** People of the current generator's corpus (0 when the stored corpus is an older generator's, which a load replaces). */
export async function corpusSize(db: Db): Promise<number> {
  if ((await peopleBulkRepository(db).corpusVersion()) !== GENERATOR_VERSION) return 0;
  return peopleRepository(db).count();
}
