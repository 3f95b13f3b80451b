import type { Db } from './knex';
import type { PersonProfile } from '../domain/profile';
import type { CandidateSummary } from '../providers/profile-source';

/** The people-table row of a profile: the filter and result-list columns. */
export interface PersonRow {
  id: string;
  first_name: string;
  last_name: string;
  title: string;
  seniority: string;
  family: string;
  company: string;
  industry: string;
  metro: string;
  country: string;
  location: string;
  network_url: string;
  open_profile: boolean;
  premium: boolean;
  years_experience: number;
  skills: string[];
  skills_text: string;
  summary: string;
  updated_at: string;
}

/** What decides who a ranked query finds and in which order (see databaseProfileSource). */
export interface RankedQuery {
  families: string[];
  industries: string[];
  /** websearch_to_tsquery text over titles and skills; empty for none. */
  text: string;
  metros: string[];
  countries: string[];
  /** Lower-case company names left out. */
  excludedCompanies: string[];
}

/** The people database (people, people_profiles): the synthetic corpus and what searches read. */
export function peopleRepository(db: Db) {
  return {
    /**
     * Inserts the people not there yet, each with their full profile; returns the ids added.
     * Run it in a transaction: a person row without its profile must never be visible.
     */
    async insertNew(people: { row: PersonRow; profile: PersonProfile }[]): Promise<string[]> {
      const added: { id: string }[] = await db('people')
        .insert(people.map((p) => p.row))
        .onConflict('id')
        .ignore()
        .returning('id');
      const fresh = new Set(added.map((r) => r.id));
      const profiles = people.filter((p) => fresh.has(p.row.id)).map((p) => ({ id: p.row.id, profile: JSON.stringify(p.profile) }));
      if (profiles.length) await db('people_profiles').insert(profiles);
      return added.map((r) => r.id);
    },
    /**
     * Inserts people or replaces what is stored about them, profiles included (a live source's
     * fresh read wins over an older one). Run it in a transaction, like insertNew.
     */
    async upsert(people: { row: PersonRow; profile: PersonProfile }[]): Promise<void> {
      if (people.length === 0) return;
      await db('people')
        .insert(people.map((p) => p.row))
        .onConflict('id')
        .merge();
      await db('people_profiles')
        .insert(people.map((p) => ({ id: p.row.id, profile: JSON.stringify(p.profile) })))
        .onConflict('id')
        .merge();
    },
    /** Fresh planner statistics after a bulk load. */
    async analyze(): Promise<void> {
      await db.raw('analyze people');
      await db.raw('analyze people_profiles');
    },
    async count(): Promise<number> {
      const [{ n }] = await db('people').count({ n: '*' });
      return Number(n);
    },
    /**
     * Candidates matching the family or the full-text query or an industry, and the places when
     * given; ranked by family match, text rank and industry, ties by id.
     */
    async ranked(q: RankedQuery, offset: number, limit: number): Promise<CandidateSummary[]> {
      const { families, industries, text: query, metros, countries, excludedCompanies: excluded } = q;
      const sql = db('people').select(
        'id as person_id',
        'first_name',
        'last_name',
        'title',
        'company',
        'location',
        'network_url',
        'open_profile',
        'premium',
        'summary',
      );
      const tsq = db.raw(`websearch_to_tsquery('english', ?)`, [query]);
      sql.where((w) => {
        if (families.length) w.orWhere('family', '=', db.raw('any(?::text[])', [families]));
        if (query) w.orWhereRaw('search_vector @@ ?', [tsq]);
        if (industries.length) w.orWhere('industry', '=', db.raw('any(?::text[])', [industries]));
      });
      if (metros.length || countries.length) {
        sql.where((w) => {
          if (metros.length) w.orWhere('metro', '=', db.raw('any(?::text[])', [metros]));
          if (countries.length) w.orWhere('country', '=', db.raw('any(?::text[])', [countries]));
        });
      }
      if (excluded.length) sql.whereRaw('lower(company) <> all(?::text[])', [excluded]);
      const rank = [
        families.length ? db.raw('(case when family = any(?::text[]) then 2 else 0 end)', [families]).toQuery() : '0',
        query ? db.raw('ts_rank_cd(search_vector, ?)', [tsq]).toQuery() : '0',
        industries.length ? db.raw('(case when industry = any(?::text[]) then 1 else 0 end)', [industries]).toQuery() : '0',
      ].join(' + ');
      return (await sql.orderByRaw(`(${rank}) desc, id asc`).limit(limit).offset(offset)) as CandidateSummary[];
    },
    async profiles(personIds: string[]): Promise<Map<string, PersonProfile>> {
      if (personIds.length === 0) return new Map();
      const rows: { id: string; profile: PersonProfile }[] = await db('people_profiles').whereIn('id', personIds).select('id', 'profile');
      return new Map(rows.map((r) => [r.id, r.profile]));
    },
  };
}
