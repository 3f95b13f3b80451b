import { COMPANIES } from '../../src/corpus/companies';
import { companySizeOf } from '../../src/corpus/company-directory';
import { parseCriteria, type ResolvedCriteria } from '../../src/domain/criteria';
import type { PersonProfile } from '../../src/domain/profile';
import { learnCalibration, valuesOf, type FeedbackReason, type RatedPerson } from '../../src/ranking/calibration';
import { DEFAULT_WEIGHTS, scoreProfile } from '../../src/ranking/scoring';

/** The model behind calibration (src/ranking/calibration.ts): stable, explainable, deterministic. */

const parsed = parseCriteria({ family: 'software_engineering', metro: 'san-francisco-bay-area', skills: ['TypeScript'] });
if (!parsed.ok) throw new Error('bad criteria');
const criteria: ResolvedCriteria = parsed.criteria;
const NOW = new Date('2026-11-28T12:00:00Z');

const INDUSTRIES = ['Financial Services', 'Retail', 'Telecommunications', 'E-Commerce', 'Internet'];

/** An engineer in San Francisco who matches the criteria fully; `n` varies company and title. */
function person(n: number, overrides: Partial<PersonProfile> = {}): PersonProfile {
  return {
    id: `p${n}`,
    title: `Software Engineer ${n % 3 === 0 ? 'II' : n % 3 === 1 ? 'III' : 'IV'}`,
    seniority: 'mid',
    family: 'software_engineering',
    company: COMPANIES[n].name,
    industry: INDUSTRIES[n % INDUSTRIES.length],
    location: { name: 'San Francisco, California, United States', locality: 'San Francisco', region: 'California', country: 'US', lat: 37.77, lon: -122.42 },
    skills: ['TypeScript'],
    years_experience: 5,
    ...overrides,
  } as PersonProfile;
}

const rate = (profile: PersonProfile, verdict: 'good' | 'bad', reasons: FeedbackReason[] = []): RatedPerson => ({ profile, verdict, reasons });
const weightOf = (cal: ReturnType<typeof learnCalibration>, kind: string, label: string) =>
  cal.values.find((v) => v.kind === kind && v.label === label)?.weight ?? 0;
const learn = (rated: RatedPerson[]) => learnCalibration(rated, criteria, DEFAULT_WEIGHTS, NOW);

describe('calibration', () => {
  it("reads a person's values, company size from the built-in company directory", () => {
    const p = person(3);
    expect(valuesOf(p).map((v) => v.kind)).toEqual(['title', 'place', 'seniority', 'industry', 'company', 'company_size']);
    expect(companySizeOf(COMPANIES[3].name)).toMatch(/^\d/);
    expect(companySizeOf('A company nobody knows')).toBeNull();
    expect(valuesOf({ title: 42, location: null } as unknown as PersonProfile)).toEqual([]);
  });

  it('learns nothing from no ratings, and a little from one', () => {
    expect(learn([])).toMatchObject({ ratings: 0, share: 0, values: [], multipliers: {} });
    const one = learn([rate(person(1), 'good')]);
    expect(one.share).toBeGreaterThan(0);
    expect(one.share).toBeLessThanOrEqual(0.05);
    expect(Math.max(...one.values.map((v) => Math.abs(v.weight)))).toBeLessThan(0.5);
  });

  it('moves a lot with consistent ratings: the preferred value leads, people who have it rise above those who do not', () => {
    const rated = Array.from({ length: 20 }, (_, i) => person(i)).map((p) => rate(p, p.industry === 'Financial Services' ? 'good' : 'bad'));
    const cal = learn(rated);
    expect(cal).toMatchObject({ ratings: 20, good: 4, bad: 16 });
    expect(cal.values[0]).toMatchObject({ kind: 'industry', label: 'Financial Services', good: 4, bad: 0 });
    expect(cal.values[0].weight).toBeGreaterThan(1);
    expect(cal.share).toBeGreaterThan(0.15);

    // Two people never rated, alike but for the industry.
    const fintech = scoreProfile(person(40, { industry: 'Financial Services' }), criteria, null, cal);
    const retail = scoreProfile(person(40, { industry: 'Retail' }), criteria, null, cal);
    expect(scoreProfile(person(40), criteria).score).toBe(100);
    expect(fintech.score - retail.score).toBeGreaterThanOrEqual(10);
    const line = fintech.breakdown.find((c) => c.criterion === 'calibration')!;
    expect(line.reason).toMatch(/^like 4 people you rated good: Financial Services(;|$)/);
    expect(retail.breakdown.find((c) => c.criterion === 'calibration')!.reason).toMatch(/^like 4 people you rated not a fit: Retail/);
    // The breakdown still adds up to the score.
    expect(Math.abs(fintech.breakdown.reduce((s, c) => s + c.points, 0) - fintech.score)).toBeLessThanOrEqual(2);
  });

  it('cancels contradicting ratings: no weight on the line, scores as before', () => {
    // Ten pairs of people alike in every value, one of each pair rated good, the other not a fit.
    const cal = learn(Array.from({ length: 20 }, (_, i) => rate(person(Math.floor(i / 2)), i % 2 === 0 ? 'good' : 'bad')));
    expect(cal.values.every((v) => Math.abs(v.weight) < 0.05)).toBe(true);
    expect(cal.share).toBeLessThan(0.02);
    for (const industry of INDUSTRIES) {
      const p = person(41, { industry });
      expect(Math.abs(scoreProfile(p, criteria, null, cal).score - scoreProfile(p, criteria).score)).toBeLessThanOrEqual(2);
    }
  });

  it('weighs what a rating says it is about: reasons count their values fully, the rest half', () => {
    const rated = [0, 5, 10].map((n) => rate(person(n, { industry: 'Financial Services' }), 'good', ['industry']));
    rated.push(...[1, 2, 3].map((n) => rate(person(n), 'bad', ['industry'])));
    const cal = learn(rated);
    expect(weightOf(cal, 'industry', 'Financial Services')).toBeGreaterThan(2 * Math.abs(weightOf(cal, 'company', COMPANIES[0].name)));
  });

  it('turns a criterion that tells good from bad into a weight multiplier', () => {
    const near = (n: number) => person(n);
    const far = (n: number) => person(n, { location: { name: 'Tokyo, Japan', locality: 'Tokyo', region: 'Tokyo', country: 'JP', lat: 35.68, lon: 139.69 } });
    const rated = [...[0, 1, 2, 3, 4, 5].map((n) => rate(near(n), 'good')), ...[6, 7, 8, 9, 10, 11].map((n) => rate(far(n), 'bad'))];
    const cal = learn(rated);
    expect(cal.multipliers.location).toBeGreaterThan(1);
    const line = scoreProfile(near(50), criteria, null, cal).breakdown.find((c) => c.criterion === 'calibration')!;
    expect(line.reason).toMatch(/weights from your ratings: .*location ×/);
  });

  it('is deterministic: the same ratings learn the same thing', () => {
    const rated = Array.from({ length: 15 }, (_, i) => person(i)).map((p, i) => rate(p, i % 3 === 0 ? 'good' : 'bad'));
    expect(learn(rated)).toEqual(learn(rated));
  });
});
