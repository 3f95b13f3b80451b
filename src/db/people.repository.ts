import type { Db } from './knex';
import type { PersonProfile } from '../domain/profile';
import type { CandidateSummary } from '../providers/profile-source';
import { bestOutsideFamilySkillsTier, bestOutsideFamilyTier, bestOutsideTier } from '../ranking/retrieval';
import { inPlacesSql, nearnessSql } from '../ranking/location';
import { SIGNALS, wantedSkillBindings, type RankedQuery } from '../ranking/signals';

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
  /** ISO 3166-1 alpha-2, '' when unknown. */
  country: string;
  /** Country and region name (`GB|england`), for region places; '' when unknown. */
  region_key: string;
  lat: number | null;
  lon: number | null;
  /** The quarter-degree cell of lat/lon (ranking/location.ts geoCell), for the ranking's first tier. */
  geo_cell: number | null;
  /** Human-readable place, e.g. "Leeds, England, United Kingdom". */
  location: string;
  /** O*NET-SOC code of the current position, when known. */
  onet_code: string | null;
  network_url: string;
  open_profile: boolean;
  premium: boolean;
  years_experience: number;
  skills: string[];
  skills_text: string;
  summary: string;
  updated_at: string;
}

export type { RankedQuery } from '../ranking/signals';

/** A ranked candidate: the result-page columns and what the scorer needs from the people table. */
export interface RankedCandidate extends CandidateSummary {
  seniority: string;
  family: string;
  metro: string;
  country: string;
  region_key: string;
  lat: number | null;
  lon: number | null;
  industry: string;
  years_experience: number;
  skills: string[];
  /** The query's estimate of the score, 0–Σ weights. */
  estimate: number;
  /** Nearness to the nearest wanted city (ranking/location.ts nearnessSql; smaller is nearer), null without one. */
  nearness: number | null;
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
     * Candidates best first by an estimate of their score: the signals' SQL terms (ranking/signals.ts)
     * weighted and summed over the people-table columns, in one statement. Who is a candidate at
     * all goes through indexes: the family or its adjacent families, or the wanted title words (the
     * title part of the search vector, GIN), else the skills (GIN) or industries. The place ranks,
     * it does not filter: the wanted role and level elsewhere can beat another role in the wanted
     * city. Ties nearest a wanted city first (people beyond twice its radius have no location credit
     * but are still nearer or farther), then by id.
     *
     * The family and its adjacent ones can be a quarter of the corpus (1.6 s on 1M people), so
     * tiers come first, each kept when its `offset + limit`-th estimate beats the best estimate
     * anyone outside it could reach: the wanted family where some location credit is ((family,
     * geo_cell) and (family, country) btrees, a few thousand people; `bestOutsideTier`), then, for
     * a place that holds too few of the family, the family's people anywhere who list every
     * wanted skill (`bestOutsideFamilySkillsTier`) or all of them (`bestOutsideFamilyTier`), each with
     * anyone in the places; otherwise the corpus. Each kept tier's order is the corpus's order.
     * A role outside the families that fills no page is followed, in the same estimate order, by
     * the people of its occupations' SOC major groups in the places (`nearby`).
     */
    async ranked(q: RankedQuery, offset: number, limit: number): Promise<RankedCandidate[]> {
      const tiers = [
        { tier: 'place' as const, outside: bestOutsideTier(q) },
        { tier: 'family-skills' as const, outside: bestOutsideFamilySkillsTier(q) },
        { tier: 'family' as const, outside: bestOutsideFamilyTier(q) },
      ];
      for (const { tier, outside } of tiers) {
        if (outside === null) continue;
        const rows = await rankedStatement(db, q, { offset: 0, limit: offset + limit, tier });
        if (rows.length === offset + limit && rows[rows.length - 1].estimate > outside + ESTIMATE_EPSILON) return rows.slice(offset);
      }
      if (!fillsFromNearby(q)) return rankedStatement(db, q, { offset, limit });
      // A rare occupation outside the families (five naval architects in the corpus) fills no
      // page: after its people come those of its SOC major group in the places, in the same order.
      const role = await rankedStatement(db, q, { offset: 0, limit: offset + limit });
      if (role.length === offset + limit) return role.slice(offset);
      const nearby = await rankedStatement(db, q, { offset: 0, limit: offset + limit, tier: 'nearby' });
      return [...role, ...nearby].sort(byRetrievalOrder).slice(offset, offset + limit);
    },
    async profiles(personIds: string[]): Promise<Map<string, PersonProfile>> {
      if (personIds.length === 0) return new Map();
      const rows: { id: string; profile: PersonProfile }[] = await db('people_profiles').whereIn('id', personIds).select('id', 'profile');
      return new Map(rows.map((r) => [r.id, r.profile]));
    },
  };
}

/** The retrieval order of rankedStatement in code: estimate, then nearness (none last), then id. */
function byRetrievalOrder(a: RankedCandidate, b: RankedCandidate): number {
  return b.estimate - a.estimate || (a.nearness ?? Infinity) - (b.nearness ?? Infinity) || (a.person_id < b.person_id ? -1 : 1);
}

/** Float sums in SQL and here may differ in the last bits; a bound must win by more than that. */
const ESTIMATE_EPSILON = 1e-6;

/** The subsets of the corpus `ranked` tries before the whole of it, and `nearby`, what it adds after a role that fills no page. */
type RankingTier = 'place' | 'family-skills' | 'family' | 'nearby';

/** Whether a search may be filled from its places: a role outside the families, by occupation, with places. */
const fillsFromNearby = (q: RankedQuery) => q.family === null && q.occupations.length > 0 && inPlacesSql(q.places).sql !== 'false';

/** SOC major groups ("17-") of the wanted occupations. */
const majorGroups = (q: RankedQuery) => [...new Set(q.occupations.map((c) => c.slice(0, 3)))];

/**
 * The ranking statement (see `ranked`) over the whole corpus, or over one of its tiers: `place`
 * (the wanted family where some location credit is), `family-skills` (the family's people who list
 * every wanted skill, and anyone in the places) or `family` (the wanted family anywhere, and anyone in
 * the places); exported for the test that holds `ranked` to it.
 */
export async function rankedStatement(db: Db, q: RankedQuery, opts: { offset: number; limit: number; tier?: RankingTier }): Promise<RankedCandidate[]> {
  const lowerSkills = q.skills.map((x) => x.toLowerCase());
  // Who can be a candidate at all; the place only ranks (a wanted title or level elsewhere
  // can beat the wrong role in the wanted city).
  const relevance =
    q.family || q.titles.length || q.occupations.length
      ? 'family = any(:families::text[]) or search_vector @@ any(q.titles) or onet_code = any(:occupationsAll::text[])'
      : q.skills.length
        ? 'skills && :skillsAnyCase::text[]'
        : 'lower(industry) = any(:industries::text[])';
  const bindings: Record<string, unknown> = {
    titles: q.titles,
    families: [q.family, ...q.adjacentFamilies].filter((f): f is string => f !== null),
    occupationsAll: q.occupationNeighbours,
    skillsAnyCase: [...new Set([...q.skills, ...lowerSkills])],
    industries: q.industries.map((x) => x.toLowerCase()),
    excluded: q.excludedCompanies,
    family: q.family ?? '',
    limit: opts.limit,
    offset: opts.offset,
  };
  // Σ weight × term over the signals the query uses (ranking/signals.ts).
  const terms: string[] = [];
  for (const signal of SIGNALS) {
    const weight = q.weights[signal.name];
    if (!weight || !('sql' in signal.retrieval)) continue;
    const term = signal.retrieval.sql(q);
    Object.assign(bindings, term.bindings, { [`w_${signal.name}`]: weight });
    terms.push(`:w_${signal.name}::float8 * (${term.sql})`);
  }
  let tier = '';
  if (opts.tier) {
    const inPlaces = inPlacesSql(q.places);
    // Every wanted skill, each as written or in lower case (as the skills term counts them).
    const everySkill = wantedSkillBindings(q, 'tierSkill');
    Object.assign(bindings, inPlaces.bindings, Object.fromEntries(everySkill));
    const listsEverySkill = everySkill.map(([name]) => `skills && :${name}::text[]`).join(' and ') || 'true';
    bindings.majorGroups = majorGroups(q);
    const where: Record<RankingTier, string> = {
      place: `family = :family and ${inPlaces.sql}`,
      'family-skills': `((family = :family and ${listsEverySkill}) or ${inPlaces.sql})`,
      family: `(family = :family or ${inPlaces.sql})`,
      nearby: `${inPlaces.sql} and left(onet_code, 3) = any(:majorGroups::text[])`,
    };
    tier = `
           and ${where[opts.tier]}`;
  }
  // Equal estimates nearest a wanted city first (none: by id alone).
  const near = nearnessSql(q.places);
  if (near) Object.assign(bindings, near.bindings);
  const sql = `
        with q as (
          -- Each wanted title as a query over the title words of the search vector (weight A).
          select array(select regexp_replace(plainto_tsquery('english', t)::text, '''([^'']+)''', '''\\1'':A', 'g')::tsquery
                         from unnest(:titles::text[]) t where plainto_tsquery('english', t)::text <> '') as titles
        )
        select id as person_id, first_name, last_name, title, company, location, network_url, open_profile, premium, summary,
               seniority, family, metro, country, region_key, lat, lon, industry, years_experience, skills,
               (${terms.length ? terms.join('\n               + ') : '0'})::float as estimate,
               ${near ? near.sql : 'null'}::float as nearness
          from people, q
         where ${opts.tier === 'nearby' ? `not coalesce(${relevance}, false)` : `(${relevance})`}${tier}
           and lower(company) <> all(:excluded::text[])
         order by estimate desc, nearness asc nulls last, id
         limit :limit offset :offset`;
  const { rows } = await db.raw(sql, bindings);
  return rows as RankedCandidate[];
}
