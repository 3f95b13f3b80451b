import { companiesRepository } from '../db/companies.repository';
import type { Db } from '../db/knex';
import { peopleRepository, type PersonRow } from '../db/people.repository';
import type { PersonProfile } from '../domain/profile';
import { findMetro } from '../reference/taxonomy';
import { COMPANY_COUNT, companyRecord } from './company-directory';
import { createPersonGenerator } from './generator';
import { createWebPageGenerator, DEFAULT_WEB_PAGES } from './web-pages';
import { webPagesRepository } from '../db/web-pages.repository';

export const DEFAULT_CORPUS_SIZE = 100_000;
export const DEFAULT_CORPUS_SEED = 42;
const BATCH = 1000;

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
    country: findMetro(p.metro)?.country ?? '',
    location: p.location,
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
 * Loads people 0..size-1 of the seeded corpus. The same seed gives the same people, so loading
 * again is a no-op for rows already there, and a larger size only adds the rest.
 */
export async function loadCorpus(
  db: Db,
  opts: { size: number; seed: number; pages?: number; onProgress?: (p: LoadProgress) => void; onPagesProgress?: (p: LoadProgress) => void },
): Promise<{ inserted: number; pages: number }> {
  const generator = createPersonGenerator(opts.seed);
  const started = Date.now();
  let inserted = 0;
  for (let from = 0; from < opts.size; from += BATCH) {
    const people: PersonProfile[] = [];
    for (let i = from; i < Math.min(opts.size, from + BATCH); i++) people.push(generator.person(i));
    const added = await db.transaction((trx) => peopleRepository(trx).insertNew(people.map((p) => ({ row: personRow(p), profile: p }))));
    inserted += added.length;
    const loaded = Math.min(opts.size, from + BATCH);
    opts.onProgress?.({ loaded, total: opts.size, perSecond: Math.round(loaded / Math.max(0.001, (Date.now() - started) / 1000)) });
  }
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
 * Pages 0..size-1 of the built-in web (bios of the seed's people, company sites, news); pages
 * already there are kept, so a larger size only adds the rest.
 */
export async function loadWebPages(db: Db, opts: { size: number; seed: number; onProgress?: (p: LoadProgress) => void }): Promise<number> {
  const pages = webPagesRepository(db);
  if ((await pages.count()) >= opts.size) return 0;
  const generator = createWebPageGenerator(opts.seed);
  const started = Date.now();
  let inserted = 0;
  for (let from = 0; from < opts.size; from += BATCH) {
    const rows = [];
    for (let i = from; i < Math.min(opts.size, from + BATCH); i++) rows.push(generator.page(i));
    inserted += await pages.insertMissing(rows);
    const loaded = Math.min(opts.size, from + BATCH);
    opts.onProgress?.({ loaded, total: opts.size, perSecond: Math.round(loaded / Math.max(0.001, (Date.now() - started) / 1000)) });
  }
  await pages.analyze();
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

export async function corpusSize(db: Db): Promise<number> {
  return peopleRepository(db).count();
}
