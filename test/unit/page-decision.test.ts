import type { PassRow, SearchRow } from '../../src/db/search.repository';
import { parseCriteria, type ResolvedCriteria } from '../../src/domain/criteria';
import type { PersonProfile } from '../../src/domain/profile';
import type { CandidateSummary } from '../../src/providers/profile-source';
import { scoreProfile } from '../../src/ranking/scoring';
import { decidePage, stopReasonAfter } from '../../src/searches/page-decision';

function criteria(extra: { target: number; read_budget?: number }): ResolvedCriteria {
  const parsed = parseCriteria({ family: 'software_engineering', skills: ['TypeScript'], must_have_skills: ['TypeScript'], ...extra });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.criteria;
}

const summary = (id: string): CandidateSummary => ({
  person_id: id,
  first_name: 'A',
  last_name: id,
  title: 'Backend Engineer',
  company: 'Acme',
  location: 'San Francisco',
  network_url: `https://network.example/in/${id}`,
  open_profile: true,
  premium: false,
  summary: '',
});

/** A strong match, or (`strong` false) one without the must-have skill. */
const profile = (id: string, strong: boolean): PersonProfile => ({
  id,
  first_name: 'A',
  last_name: id,
  title: 'Senior Backend Engineer',
  seniority: 'senior',
  family: 'software_engineering',
  occupation: null,
  company: 'Acme',
  industry: 'Financial Services',
  metro: 'san-francisco-bay-area',
  location: { name: 'San Francisco, California, United States', locality: 'San Francisco', region: 'California', country: 'US', lat: 37.77, lon: -122.42 },
  network_url: `https://network.example/in/${id}`,
  open_profile: true,
  premium: false,
  summary: '',
  about: '',
  years_experience: 7,
  experience: [],
  education: [],
  skills: strong ? ['TypeScript'] : ['Cobol'],
  certifications: [],
  languages: [],
  projects: [],
  connections: 100,
  updated_at: '2026-01-01T00:00:00.000Z',
});

const ids = ['p1', 'p2', 'p3', 'p4'];
const fresh = ids.map(summary);
const candidateIds = new Map(ids.map((id) => [id, `c-${id}`]));

describe('decidePage', () => {
  it('reads while the budget lasts, shortlists at the threshold up to the target, and leaves the rest not_read', () => {
    const c = criteria({ target: 2 });
    expect(scoreProfile(profile('x', true), c).score).toBeGreaterThanOrEqual(c.shortlist_threshold);
    expect(scoreProfile(profile('x', false), c).score).toBeLessThan(c.shortlist_threshold);
    // p2 is weak, p3 could not be read; p1 and p4 fill the target of 2.
    const profiles = new Map([
      ['p1', profile('p1', true)],
      ['p2', profile('p2', false)],
      ['p4', profile('p4', true)],
    ]);
    const decision = decidePage(fresh, profiles, candidateIds, new Set(), { criteria: c, budget: 10, weights: undefined, shortlisted: 0 });
    expect(decision.read).toBe(3);
    expect(decision.shortlist).toEqual(['c-p1', 'c-p4']);
    expect(decision.people.map((p) => [p.candidateId, p.scored !== null])).toEqual([
      ['c-p1', true],
      ['c-p2', true],
      ['c-p3', false],
      ['c-p4', true],
    ]);
  });

  it('reads no one past the target or the budget, and does not shortlist someone already listed', () => {
    const c = criteria({ target: 2 });
    const profiles = new Map(ids.map((id) => [id, profile(id, true)]));
    // The search has 1 of its 2 already: p1 is already on the list (read, no place filled), p2 fills the last place.
    const full = decidePage(fresh, profiles, candidateIds, new Set(['c-p1']), { criteria: c, budget: 10, weights: undefined, shortlisted: 1 });
    expect(full.shortlist).toEqual(['c-p2']);
    expect(full.read).toBe(2);
    expect(full.people.filter((p) => p.scored === null).map((p) => p.candidateId)).toEqual(['c-p3', 'c-p4']);
    const budgeted = decidePage(fresh, profiles, candidateIds, new Set(), {
      criteria: criteria({ target: 10 }),
      budget: 1,
      weights: undefined,
      shortlisted: 0,
    });
    expect(budgeted.read).toBe(1);
    expect(budgeted.shortlist).toEqual(['c-p1']);
  });
});

describe('stopReasonAfter', () => {
  const c = criteria({ target: 5, read_budget: 50 });
  const search = (shortlisted: number) => ({ shortlisted }) as SearchRow;
  const pass = (profilesRead: number) => ({ criteria: c, profiles_read: profilesRead }) as PassRow;
  it('stops at the target first, then when the pool or the pass read budget runs out', () => {
    expect(stopReasonAfter(search(5), pass(50), 10)).toBe('target_reached');
    expect(stopReasonAfter(search(4), pass(50), 24)).toBe('pool_exhausted');
    expect(stopReasonAfter(search(4), pass(50), 25)).toBe('read_budget_reached');
    expect(stopReasonAfter(search(4), pass(49), 25)).toBeNull();
  });
});
