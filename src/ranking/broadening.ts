import { findFamily, findMetro } from '../reference/taxonomy';
import type { ResolvedCriteria } from '../domain/criteria';

/** One change an expansion made to the criteria, explained for the response and the pass record. */
export interface Broadening {
  field: string;
  change: string;
  reason: string;
}

export const MAX_EXPANSION_LEVEL = 2;

const unique = <T>(xs: T[]) => [...new Set(xs)];

/**
 * Broadened criteria for expansion level 1 or 2, from the launch criteria:
 * level 1 widens titles to adjacent roles and places to neighbouring metros;
 * level 2 also relaxes years of experience and drops the industry filter.
 * Must-have skills, exclusions and the threshold stay: broadening finds more people, it does not
 * lower the bar for shortlisting them.
 */
export function broadenCriteria(base: ResolvedCriteria, level: number): { criteria: ResolvedCriteria; broadening: Broadening[] } {
  const criteria: ResolvedCriteria = structuredClone(base);
  const broadening: Broadening[] = [];

  const family = criteria.family ? findFamily(criteria.family) : undefined;
  if (family) {
    const adjacent = family.adjacent.map(findFamily).filter((f) => f !== undefined);
    const added = unique([...family.titles, ...adjacent.flatMap((f) => f.titles.slice(0, 2))]).filter((t) => !(criteria.titles ?? []).includes(t));
    if (added.length) {
      criteria.titles = unique([...(criteria.titles ?? []), ...added]).slice(0, 20);
      broadening.push({
        field: 'titles',
        change: `added ${added.slice(0, 20 - (base.titles?.length ?? 0)).join(', ')}`,
        reason: `titles of ${family.label} and adjacent roles (${adjacent.map((f) => f.label).join(', ') || 'none'})`,
      });
    }
  }
  const metros = unique([criteria.metro, ...(criteria.locations ?? [])].filter((m): m is string => !!m && !!findMetro(m)));
  const neighbours = unique(metros.flatMap((m) => findMetro(m)!.neighbors)).filter((n) => !metros.includes(n) && !(criteria.locations ?? []).includes(n));
  if (neighbours.length) {
    criteria.locations = unique([...(criteria.locations ?? []), ...neighbours]).slice(0, 20);
    broadening.push({ field: 'locations', change: `added ${neighbours.join(', ')}`, reason: 'neighbouring metros' });
  }

  if (level >= 2) {
    if (criteria.years_experience) {
      const { min, max } = criteria.years_experience;
      const relaxed = { ...(min !== undefined ? { min: Math.max(0, min - 2) } : {}), ...(max !== undefined ? { max: max + 5 } : {}) };
      criteria.years_experience = relaxed;
      broadening.push({
        field: 'years_experience',
        change: `${JSON.stringify({ min, max })} → ${JSON.stringify(relaxed)}`,
        reason: 'relaxed by 2 years below and 5 above',
      });
    }
    if (criteria.industries?.length) {
      broadening.push({ field: 'industries', change: `removed ${criteria.industries.join(', ')}`, reason: 'any industry' });
      delete criteria.industries;
    }
  }
  return { criteria, broadening };
}
