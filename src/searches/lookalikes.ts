/**
 * Lookalike searches (DESIGN.md §13): criteria `like` names 1–10 candidates of the workspace; the
 * launch reads what they have in common from their profiles and fills the criteria the request
 * left out (occupations, titles, places, seniority, skills, industries), and sums them up as
 * `likeness` for the similarity signal (ranking/signals.ts). People the project already has are
 * not delivered again (the pass's reading, pass.service.ts).
 */
import type { Db } from '../db/knex';
import { searchPeopleRepository } from '../db/search-people.repository';
import { parseCriteria, type Criteria, type Likeness, type ResolvedCriteria } from '../domain/criteria';
import { AppError } from '../domain/errors';
import { SENIORITIES, type PersonProfile, type Seniority } from '../domain/profile';
import { distanceKm } from '../reference/gazetteer';
import { PLACE_RADIUS } from '../reference/place-resolution';
import { titleTokens } from '../ranking/title-match';

/** A value counts as shared when at least this share of the examples have it. */
const SHARED = 0.5;
const MAX_TITLES = 5;
const MAX_PLACES = 5;
const MAX_SKILLS = 10;
const MAX_INDUSTRIES = 3;
const MAX_OCCUPATIONS = 3;
/** The likeness keeps this many of the examples' skills (most shared first). */
const LIKENESS_SKILLS = 20;

/** Values by how many examples have them, most first (ties in the examples' order). */
function counted(lists: readonly (readonly string[])[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const list of lists) for (const v of new Set(list)) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

/** The values at least `share` of `n` examples have, or the most common one when none is shared that widely. */
function shared(lists: readonly (readonly string[])[], n: number, max: number): string[] {
  const ranked = counted(lists);
  const wide = ranked.filter(([, k]) => k >= Math.max(1, Math.ceil(n * SHARED))).map(([v]) => v);
  return (wide.length ? wide : ranked.slice(0, 1).map(([v]) => v)).slice(0, max);
}

/** The criteria a set of example profiles stands for, as criteria input. */
export function criteriaOfExamples(profiles: readonly PersonProfile[]): Criteria {
  const n = profiles.length;
  const out: Criteria = {};
  const codes = shared(
    profiles.map((p) => (p.occupation?.onet_code ? [p.occupation.onet_code] : [])),
    n,
    MAX_OCCUPATIONS,
  );
  if (codes.length) out.occupations = codes;
  const titles = [...new Set(profiles.map((p) => p.title).filter((t) => typeof t === 'string' && t.trim() !== ''))].slice(0, MAX_TITLES);
  if (titles.length) out.titles = titles;
  // Each example's town, once: examples a few kilometres apart stand for one place.
  const places: { lat: number; lon: number; radius_km: number }[] = [];
  for (const p of profiles) {
    const { lat, lon } = p.location ?? {};
    if (typeof lat !== 'number' || typeof lon !== 'number') continue;
    if (places.some((q) => distanceKm(q.lat, q.lon, lat, lon) < PLACE_RADIUS.defaultCityKm)) continue;
    places.push({ lat, lon, radius_km: PLACE_RADIUS.defaultCityKm });
  }
  if (places.length) out.places = places.slice(0, MAX_PLACES);
  const levels = [...new Set(profiles.map((p) => p.seniority).filter((s): s is Seniority => SENIORITIES.includes(s)))];
  if (levels.length && levels.length <= 3) out.seniority = SENIORITIES.filter((s) => levels.includes(s));
  const skills = shared(
    profiles.map((p) => p.skills ?? []),
    n,
    MAX_SKILLS,
  );
  if (skills.length) out.skills = skills;
  const industries = shared(
    profiles.map((p) => (p.industry ? [p.industry] : [])),
    n,
    MAX_INDUSTRIES,
  );
  if (industries.length) out.industries = industries;
  return out;
}

/** What the examples have in common, for the similarity signal. */
export function likenessOf(profiles: readonly PersonProfile[]): Likeness {
  const lower = (xs: readonly string[]) => xs.map((x) => x.toLowerCase());
  return {
    examples: profiles.length,
    occupations: counted(profiles.map((p) => (p.occupation?.onet_code ? [p.occupation.onet_code] : []))).map(([v]) => v),
    skills: counted(profiles.map((p) => lower(p.skills ?? [])))
      .slice(0, LIKENESS_SKILLS)
      .map(([v]) => v),
    title_words: counted(profiles.map((p) => titleTokens(p.title ?? ''))).map(([v]) => v),
    industries: counted(profiles.map((p) => (p.industry ? [p.industry.toLowerCase()] : []))).map(([v]) => v),
    seniority: [...new Set(profiles.map((p) => p.seniority).filter((s): s is Seniority => SENIORITIES.includes(s)))],
  };
}

/**
 * Criteria with their `like` examples applied: the fields the request left out filled from the
 * examples, and their likeness. 400 invalid_criteria for candidates outside the workspace or never read.
 */
export async function withExamples(db: Db, workspaceId: string, criteria: ResolvedCriteria): Promise<ResolvedCriteria> {
  if (!criteria.like?.length) return criteria;
  const rows = await searchPeopleRepository(db).examples(workspaceId, criteria.like);
  const unknown = criteria.like.filter((id) => !rows.some((r) => r.candidate_id === id));
  if (unknown.length) {
    throw new AppError('invalid_criteria', 400, `like: no candidate ${unknown.join(', ')} in this workspace`, {
      problems: [{ field: 'like', message: `unknown candidates: ${unknown.join(', ')}` }],
    });
  }
  const profiles = rows.map((r) => r.profile).filter((p): p is PersonProfile => p !== null);
  if (profiles.length === 0) {
    throw new AppError('invalid_criteria', 400, 'like: none of these candidates has been read yet; read one of them (GET its profile) first', {
      problems: [{ field: 'like', message: 'no profile read for these candidates' }],
    });
  }
  const derived = parseCriteria(criteriaOfExamples(profiles));
  const merged: ResolvedCriteria = { ...criteria };
  if (derived.ok) {
    // What the request says wins; the examples fill the rest.
    for (const field of ['occupations', 'titles', 'places', 'seniority', 'skills', 'industries', 'family'] as const) {
      if (merged[field] === undefined && derived.criteria[field] !== undefined) (merged as Record<string, unknown>)[field] = derived.criteria[field];
    }
  }
  merged.likeness = likenessOf(profiles);
  return merged;
}
