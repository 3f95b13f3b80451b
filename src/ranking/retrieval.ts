/**
 * The retrieval order (DESIGN.md §4): the criteria as the SQL estimate of the score reads them
 * (RankedQuery), which signals count, and the bounds that let a ranking stop after one of its tiers.
 * The estimate itself is the signals' SQL terms (signals.ts), composed by peopleRepository.ranked.
 */
import { findFamily } from '../reference/taxonomy';
import { broadNeighbours } from '../reference/occupations';
import { FAMILY_UMBRELLA_TITLES } from '../reference/role-vocabulary';
import type { ResolvedCriteria } from '../domain/criteria';
import { SENIORITIES } from '../domain/profile';
import { placeQuery, placesOf } from './location';
import { effectiveWeights } from './scoring';
import { requestedSkills, SIGNALS, type RankedQuery, type ScoringWeights } from './signals';
import { canonicalRoles, departmentTitlesOnly, departmentWords } from './title-match';

/**
 * The wanted titles as the corpus writes them: each title, and the base title an alias stands for
 * ("iOS Developer" → also "Mobile Engineer"), so the index finds the same role under either name.
 */
function titlesToFind(criteria: ResolvedCriteria): string[] {
  const out = new Set<string>();
  for (const t of criteria.titles ?? []) {
    const phrases = canonicalRoles(t)?.phrases.filter((p) => !criteria.family || p.family === criteria.family) ?? [];
    const base = phrases.find((p) => p.title)?.title;
    // A manager-and-up title is found by its department words ("Head of Engineering" is any
    // "… Engineering" title; the seniority ranks the levels), as the scorer compares them.
    const department = phrases.length && !base && phrases[0].source === 'level-title' ? departmentWords(t) : undefined;
    if (department !== undefined) {
      if (department !== '') out.add(department);
      continue;
    }
    out.add(t);
    if (base) out.add(base);
    // A title that names the whole family finds every title of it (the scorer ranks them).
    const family = phrases.find((p) => p.title)?.family;
    if (base && family && FAMILY_UMBRELLA_TITLES.get(family)?.has(base)) for (const other of findFamily(family)?.titles ?? []) out.add(other);
  }
  return [...out];
}

/** The criteria as the ranking query's estimate of the scorer reads them, under the search's weights. */
export function rankedQuery(criteria: ResolvedCriteria, weights?: Partial<ScoringWeights> | null): RankedQuery {
  const family = criteria.family ? findFamily(criteria.family) : undefined;
  const seniorities = criteria.seniority ?? [];
  const near = SENIORITIES.filter((s, i) => !seniorities.includes(s) && seniorities.some((w) => Math.abs(SENIORITIES.indexOf(w) - i) === 1));
  const years = criteria.years_experience ?? {};
  const w = effectiveWeights(weights, criteria);
  return {
    // A signal the search does not use weighs nothing, as in the scorer.
    weights: Object.fromEntries(SIGNALS.map((s) => [s.name, s.applies(criteria) ? w[s.name] : 0])) as ScoringWeights,
    family: family?.id ?? null,
    adjacentFamilies: family?.adjacent ?? [],
    titles: titlesToFind(criteria),
    titlesNameLevel: departmentTitlesOnly(criteria) && seniorities.length > 0,
    occupations: criteria.occupations ?? [],
    occupationNeighbours: broadNeighbours(criteria.occupations ?? []),
    seniorities,
    nearSeniorities: near,
    places: placeQuery(placesOf(criteria)),
    skills: requestedSkills(criteria),
    years: { min: years.min ?? null, max: years.max ?? null },
    industries: criteria.industries ?? [],
    excludedCompanies: (criteria.exclude_companies ?? []).map((c) => c.toLowerCase()),
  };
}

/**
 * The ranking's first tier: the wanted family where some location credit is (near a wanted city,
 * in a wanted region or country). Null when the query has no such tier (no family, no place or
 * no location weight).
 */
export const hasTier = (q: RankedQuery) => !!q.family && q.weights.location > 0 && hasPlaces(q);

const hasPlaces = (q: RankedQuery) => q.places.cells.length > 0 || q.places.countries.length > 0 || q.places.regions.length > 0;

/** The highest estimate anyone can reach with this much family and location credit, every other part full. */
function bestEstimate(q: RankedQuery, family: number, place: number): number {
  const parts = (q.titles.length ? 1 : 0) + 1 + (q.seniorities.length ? 1 : 0);
  const others = Object.entries(q.weights)
    .filter(([name]) => name !== 'title' && name !== 'location')
    .reduce((sum, [, weight]) => sum + weight, 0);
  return (q.weights.title * ((q.titles.length ? 1 : 0) + family + (q.seniorities.length ? 1 : 0))) / parts + q.weights.location * place + others;
}

/**
 * The highest estimate of anyone outside the first tier, or null without a tier. Outside it one is
 * either of another family (at best adjacent: half the family part) with every other part full, or
 * of the wanted family with no location credit.
 */
export function bestOutsideTier(q: RankedQuery): number | null {
  if (!hasTier(q)) return null;
  return Math.max(bestEstimate(q, q.adjacentFamilies.length ? 0.5 : 0, 1), bestEstimate(q, 1, 0));
}

/**
 * The ranking's last tier, for when the place holds too few of the family (a designer around
 * Leeds): the wanted family anywhere, and anyone in the wanted places. Outside it one is of another
 * family (at best adjacent) with no location credit, or any location credit when no place is
 * wanted. Null without a family.
 */
export function bestOutsideFamilyTier(q: RankedQuery): number | null {
  if (!q.family) return null;
  return bestEstimate(q, q.adjacentFamilies.length ? 0.5 : 0, hasPlaces(q) ? 0 : 1);
}

/**
 * Before it, the same with only the family's people who list every wanted skill (skills GIN index:
 * a tenth of a big family for two skills). Outside it one is also of the family, missing a wanted
 * skill (a share of the skills part), without location credit. Null without a family or skills.
 */
export function bestOutsideFamilySkillsTier(q: RankedQuery): number | null {
  const outside = bestOutsideFamilyTier(q);
  if (outside === null || q.skills.length === 0 || !q.weights.skills) return null;
  return Math.max(outside, bestEstimate(q, 1, hasPlaces(q) ? 0 : 1) - q.weights.skills / q.skills.length);
}
