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

/**
 * What decides who a ranked query finds and in which order (see databaseProfileSource): the
 * criteria as the scorer reads them, and the scorer's weights, for an estimate of each person's
 * score that Postgres can compute from the people table alone.
 */
export interface RankedQuery {
  /** Per criterion; 0 leaves a criterion out (the search does not use it). */
  weights: { title: number; location: number; years: number; industry: number; skills: number };
  family: string | null;
  adjacentFamilies: string[];
  /** Wanted titles: a person's title matches one when it has all of its words. */
  titles: string[];
  seniorities: string[];
  /** Levels one step from a wanted one (half a match, as the scorer counts them). */
  nearSeniorities: string[];
  metros: string[];
  /** Neighbours of the wanted metros (half a match). */
  neighborMetros: string[];
  countries: string[];
  /** Countries of the wanted metros (a quarter). */
  nearCountries: string[];
  /** Skills as written in criteria; compared case-insensitively. */
  skills: string[];
  years: { min: number | null; max: number | null };
  industries: string[];
  /** Lower-case company names left out. */
  excludedCompanies: string[];
}

/** A ranked candidate: the result-page columns and what the scorer needs from the people table. */
export interface RankedCandidate extends CandidateSummary {
  seniority: string;
  family: string;
  metro: string;
  country: string;
  industry: string;
  years_experience: number;
  skills: string[];
  /** The query's estimate of the score, 0–Σ weights. */
  estimate: number;
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
     * Candidates best first by an estimate of their score: the scorer's weighted sum over the
     * people-table columns (title words, family, seniority, place, years, industry, skills), in
     * one statement. Who is a candidate at all goes through indexes: the family or its adjacent
     * families ((family, metro) btree) or the wanted title words (the title part of the search
     * vector, GIN), else the skills (GIN) or industries. The place ranks, it does not filter: the
     * wanted role and level elsewhere can beat another role in the wanted city. Ties by id.
     *
     * The whole family can be a quarter of the corpus (1.6 s on 1M people), so the wanted family
     * in the wanted metros is ranked first ((family, metro) btree, a few thousand people): when
     * its `offset + limit`-th estimate beats the best estimate anyone outside it could reach
     * (`bestOutsideWantedMetros`), its order is the whole corpus's order; otherwise the corpus.
     */
    async ranked(q: RankedQuery, offset: number, limit: number): Promise<RankedCandidate[]> {
      const outside = bestOutsideWantedMetros(q);
      if (outside !== null) {
        const tier = await rankedStatement(db, q, { offset: 0, limit: offset + limit, wantedFamilyAndMetros: true });
        if (tier.length === offset + limit && tier[tier.length - 1].estimate > outside + ESTIMATE_EPSILON) return tier.slice(offset);
      }
      return rankedStatement(db, q, { offset, limit, wantedFamilyAndMetros: false });
    },
    async profiles(personIds: string[]): Promise<Map<string, PersonProfile>> {
      if (personIds.length === 0) return new Map();
      const rows: { id: string; profile: PersonProfile }[] = await db('people_profiles').whereIn('id', personIds).select('id', 'profile');
      return new Map(rows.map((r) => [r.id, r.profile]));
    },
  };
}

/** Float sums in SQL and here may differ in the last bits; a bound must win by more than that. */
const ESTIMATE_EPSILON = 1e-6;

/** The title part's divisor: how many of its three parts (title words, family, level) the query uses. */
const titleParts = (q: RankedQuery) => (q.titles.length ? 1 : 0) + (q.family ? 1 : 0) + (q.seniorities.length ? 1 : 0);

/**
 * The highest estimate (as `rankedStatement` computes it) of anyone who is not of the wanted family in
 * a wanted metro, or null when the query has no such tier (no family or no metro). Everyone else
 * is either of another family (at best adjacent: half the family part) with every other part
 * full, or of the wanted family elsewhere: in a wanted country (full place part), a neighbouring
 * metro (half) or a wanted metro's country (a quarter).
 */
export function bestOutsideWantedMetros(q: RankedQuery): number | null {
  const w = q.weights;
  if (!q.family || !q.metros.length || w.location === 0) return null;
  const parts = titleParts(q);
  const best = (family: number, place: number) =>
    (w.title * ((q.titles.length ? 1 : 0) + family + (q.seniorities.length ? 1 : 0))) / parts + w.location * place + w.years + w.industry + w.skills;
  const placeElsewhere = q.countries.length ? 1 : q.neighborMetros.length ? 0.5 : q.nearCountries.length ? 0.25 : 0;
  return Math.max(best(q.adjacentFamilies.length ? 0.5 : 0, 1), best(1, placeElsewhere));
}

/**
 * The ranking statement (see `ranked`) over the whole corpus, or over the wanted family in the
 * wanted metros (`wantedFamilyAndMetros`); exported for the test that holds `ranked` to it.
 */
export async function rankedStatement(
  db: Db,
  q: RankedQuery,
  opts: { offset: number; limit: number; wantedFamilyAndMetros: boolean },
): Promise<RankedCandidate[]> {
  const { offset, limit } = opts;
  const w = q.weights;
  const titleWeight = titleParts(q);
  const lowerSkills = q.skills.map((x) => x.toLowerCase());
  // Who can be a candidate at all; the place only ranks (a wanted title or level elsewhere
  // can beat the wrong role in the wanted city).
  const relevance =
    q.family || q.titles.length
      ? 'family = any(:families::text[]) or search_vector @@ any(q.titles)'
      : q.skills.length
        ? 'skills && :skillsAnyCase::text[]'
        : 'lower(industry) = any(:industries::text[])';
  const titlePart = titleWeight
    ? `:wTitle * ((search_vector @@ any(q.titles))::int * :hasTitles
             + (case when family = :family then 1 when family = any(:adjacent::text[]) then 0.5 else 0 end)
             + (case when seniority = any(:seniorities::text[]) then 1 when seniority = any(:nearSeniorities::text[]) then 0.5 else 0 end)) / ${titleWeight}`
    : '0';
  const sql = `
        with q as (
          -- Each wanted title as a query over the title words of the search vector (weight A).
          select array(select regexp_replace(plainto_tsquery('english', t)::text, '''([^'']+)''', '''\\1'':A', 'g')::tsquery
                         from unnest(:titles::text[]) t where plainto_tsquery('english', t)::text <> '') as titles
        )
        select id as person_id, first_name, last_name, title, company, location, network_url, open_profile, premium, summary,
               seniority, family, metro, country, industry, years_experience, skills,
               ( ${titlePart}
               + :wLocation * (case when metro = any(:metros::text[]) or country = any(:countries::text[]) then 1
                                    when metro = any(:neighborMetros::text[]) then 0.5 when country = any(:nearCountries::text[]) then 0.25 else 0 end)
               + :wYears * greatest(0, 1 - greatest(coalesce(:minYears::float8 - years_experience, 0), coalesce(years_experience - :maxYears::float8, 0), 0) / 5.0)
               + :wIndustry * (lower(industry) = any(:industries::text[]))::int
               + :wSkills * least(1, (select count(*) from unnest(skills) s where lower(s) = any(:skills::text[]))::float / greatest(1, :skillCount::int))
               )::float as estimate
          from people, q
         where (${relevance})${opts.wantedFamilyAndMetros ? '\n           and family = :family and metro = any(:metros::text[])' : ''}
           and lower(company) <> all(:excluded::text[])
         order by estimate desc, id
         limit :limit offset :offset`;
  const { rows } = await db.raw(sql, {
    titles: q.titles,
    families: [q.family, ...q.adjacentFamilies].filter((f): f is string => f !== null),
    family: q.family ?? '',
    adjacent: q.adjacentFamilies,
    hasTitles: q.titles.length ? 1 : 0,
    seniorities: q.seniorities,
    nearSeniorities: q.nearSeniorities,
    metros: q.metros,
    neighborMetros: q.neighborMetros,
    countries: q.countries,
    nearCountries: q.nearCountries,
    minYears: q.years.min,
    maxYears: q.years.max,
    industries: q.industries.map((x) => x.toLowerCase()),
    skills: lowerSkills,
    skillsAnyCase: [...new Set([...q.skills, ...lowerSkills])],
    skillCount: q.skills.length,
    excluded: q.excludedCompanies,
    wTitle: titleWeight ? w.title : 0,
    wLocation: w.location,
    wYears: w.years,
    wIndustry: w.industry,
    wSkills: w.skills,
    limit,
    offset,
  });
  return rows as RankedCandidate[];
}
