import type { PersonProfile } from '../../src/domain/profile';
import { parseCriteria } from '../../src/domain/criteria';
import { rankedQuery } from '../../src/ranking/retrieval';
import { DEFAULT_WEIGHTS, SIGNALS, SIGNAL_NAMES } from '../../src/ranking/signals';

/**
 * The signal table (src/ranking/signals.ts) is the one place a ranking signal is declared: each
 * has a weight, a scorer and either its SQL twin for the retrieval order or the reason it can only
 * be scored after a profile is read. A signal added without one fails here.
 */
describe('the ranking signals', () => {
  const parsed = parseCriteria({
    family: 'software_engineering',
    occupations: ['15-1252.00'],
    titles: ['Backend Engineer'],
    places: [{ name: 'Leeds', radius_km: 30 }, 'Bavaria'],
    industries: ['Financial Services'],
    years_experience: { min: 3, max: 8 },
    skills: ['TypeScript'],
    seniority: ['senior'],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  // A lookalike search's likeness (the launch sets it from the examples) makes the similarity signal count.
  const criteria = {
    ...parsed.criteria,
    likeness: {
      examples: 2,
      occupations: ['15-1252.00'],
      skills: ['typescript'],
      title_words: ['backend'],
      industries: ['fintech'],
      seniority: ['senior' as const],
    },
  };

  it('each has a default weight, a scorer and a retrieval term or a reason to score after reading', () => {
    expect(new Set(SIGNAL_NAMES).size).toBe(SIGNALS.length);
    for (const s of SIGNALS) {
      expect({ name: s.name, weight: DEFAULT_WEIGHTS[s.name] }).toEqual({ name: s.name, weight: s.defaultWeight });
      expect(s.describes.length).toBeGreaterThan(20);
      const retrieval = s.retrieval as { sql?: unknown; scoredAfterReading?: string };
      expect({ name: s.name, has: typeof retrieval.sql === 'function' || (retrieval.scoredAfterReading ?? '').length > 0 }).toEqual({
        name: s.name,
        has: true,
      });
    }
  });

  it('every retrieval term is SQL with named bindings the query provides', () => {
    const q = rankedQuery(criteria);
    for (const s of SIGNALS) {
      expect(s.applies(criteria)).toBe(true);
      if (!('sql' in s.retrieval)) continue;
      const term = s.retrieval.sql(q);
      for (const [, name] of term.sql.matchAll(/(?<![:\w]):(\w+)/g))
        expect({ signal: s.name, name, bound: name in term.bindings }).toEqual({ signal: s.name, name, bound: true });
    }
  });

  it('scores a malformed profile 0–1 without throwing', () => {
    const junk = { title: 42, location: 'nowhere', skills: 'x', experience: null, occupation: 7 } as unknown as PersonProfile;
    for (const s of SIGNALS) {
      const { match, reason } = s.score(junk, criteria);
      expect(match).toBeGreaterThanOrEqual(0);
      expect(match).toBeLessThanOrEqual(1);
      expect(reason.length).toBeGreaterThan(0);
    }
  });
});
