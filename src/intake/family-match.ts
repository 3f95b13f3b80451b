import type { RoleFamilyRow } from '../db/role-family.repository';
import { occupations } from '../reference/occupations';

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[_\-&/]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Character bigrams of a normalised string, with multiplicity. */
function bigrams(s: string): Map<string, number> {
  const out = new Map<string, number>();
  const t = ` ${norm(s)} `;
  for (let i = 0; i < t.length - 1; i++) out.set(t.slice(i, i + 2), (out.get(t.slice(i, i + 2)) ?? 0) + 1);
  return out;
}

/** Sørensen–Dice similarity of bigrams: 1 for equal strings, 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  const x = bigrams(a);
  const y = bigrams(b);
  let common = 0;
  let total = 0;
  for (const [g, n] of x) {
    common += Math.min(n, y.get(g) ?? 0);
    total += n;
  }
  for (const n of y.values()) total += n;
  return total === 0 ? 0 : (2 * common) / total;
}

/** The family a name denotes (its id or label, case- and separator-insensitive). */
export function findWorkspaceFamily(families: RoleFamilyRow[], name: string): RoleFamilyRow | undefined {
  const n = norm(name);
  return families.find((f) => norm(f.family_id) === n || norm(f.label) === n);
}

/** The `count` families closest to `name` (by id or label), best first. */
export function closestFamilies(families: RoleFamilyRow[], name: string, count = 3): RoleFamilyRow[] {
  return families
    .map((f) => ({ f, score: Math.max(similarity(name, f.family_id), similarity(name, f.label)) }))
    .sort((a, b) => b.score - a.score || a.f.family_id.localeCompare(b.f.family_id))
    .slice(0, count)
    .map((s) => s.f);
}

/**
 * Families near occupations that sit in none (a pharmacist, a chef): the workspace's families of
 * the occupations in the same SOC minor group ("29-1…": healthcare practitioners), then major group,
 * most occupations first; up to `count`.
 */
export function familiesNearOccupations(families: RoleFamilyRow[], codes: readonly string[], count = 3): RoleFamilyRow[] {
  const score = new Map<string, number>();
  for (const code of codes) {
    for (const o of occupations().all) {
      if (!o.family) continue;
      const weight = o.code.slice(0, 4) === code.slice(0, 4) ? 10 : o.code.slice(0, 3) === code.slice(0, 3) ? 1 : 0;
      if (weight) score.set(o.family, (score.get(o.family) ?? 0) + weight);
    }
  }
  return families
    .filter((f) => score.has(f.family_id))
    .sort((a, b) => score.get(b.family_id)! - score.get(a.family_id)! || a.family_id.localeCompare(b.family_id))
    .slice(0, count);
}
