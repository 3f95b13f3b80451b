import { findFamily, findMetro } from '../../src/reference/taxonomy';
import { parseCriteria, type Criteria, type ResolvedCriteria } from '../../src/domain/criteria';
import type { PersonLocation, PersonProfile } from '../../src/domain/profile';
import { gazetteer } from '../../src/reference/gazetteer';
import { DEFAULT_WEIGHTS, MUST_HAVE_CAP, scoreProfile } from '../../src/ranking/scoring';
import { titleSimilarity } from '../../src/ranking/title-match';

/** Criteria through the real parser, so tests use canonical reference values. */
function criteria(input: Criteria): ResolvedCriteria {
  const parsed = parseCriteria(input);
  if (!parsed.ok) throw new Error(`bad test criteria: ${JSON.stringify(parsed.problems)}`);
  return parsed.criteria;
}

/** Where a person lives: a gazetteer city, or a point `northKm` due north of it. */
function placedAt(city: string, northKm = 0): PersonLocation {
  const c = gazetteer()
    .named(city)
    .find((p) => p.kind === 'city')!;
  const lat = c.lat + northKm / ((6371.0088 * Math.PI) / 180);
  return {
    name: northKm ? `${northKm} km north of ${c.fullName}` : c.fullName,
    locality: c.name,
    region: c.regionName ?? '',
    country: c.country,
    lat,
    lon: c.lon,
  };
}

/** A complete, strong profile for `FULL` below; tests override what they vary. */
function makeProfile(overrides: Partial<PersonProfile> = {}): PersonProfile {
  return {
    id: 'p0000001',
    first_name: 'Ada',
    last_name: 'Lovelace',
    title: 'Senior Backend Engineer',
    seniority: 'senior',
    family: 'software_engineering',
    occupation: { onet_code: '15-1252.00', title: 'Software Developers' },
    company: 'Acme Pay',
    industry: 'Financial Services',
    metro: 'san-francisco-bay-area',
    location: placedAt('San Francisco'),
    network_url: 'https://network.example/in/p0000001',
    open_profile: true,
    premium: false,
    summary: 'Backend engineer',
    about: 'I build payment systems.',
    years_experience: 7,
    experience: [
      { title: 'Senior Backend Engineer', company: 'Acme Pay', industry: 'Financial Services', start: '2021-01', end: null, description: '' },
      { title: 'Software Engineer', company: 'Shopfront', industry: 'E-Commerce', start: '2017-06', end: '2020-12', description: '' },
    ],
    education: [],
    skills: ['TypeScript', 'Kubernetes', 'PostgreSQL'],
    certifications: [],
    languages: ['English (native)'],
    projects: [],
    connections: 500,
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const FULL: Criteria = {
  family: 'software_engineering',
  titles: ['Backend Engineer'],
  metro: 'san-francisco-bay-area',
  industries: ['Financial Services'],
  years_experience: { min: 5, max: 10 },
  skills: ['TypeScript', 'Kubernetes'],
  must_have_skills: ['TypeScript'],
  seniority: ['senior'],
};

describe('reference values the tests rely on', () => {
  it('exist', () => {
    expect(findFamily('software_engineering')?.adjacent).toContain('devops_sre');
    expect(findMetro('san-francisco-bay-area')?.neighbors).toContain('san-jose');
    expect(findMetro('los-angeles')?.country).toBe('United States');
    expect(findMetro('san-francisco-bay-area')?.neighbors).not.toContain('los-angeles');
    expect(findMetro('london')?.country).toBe('United Kingdom');
  });
});

describe('scoreProfile', () => {
  it('scores a perfect match 100 with every criterion in the breakdown', () => {
    const result = scoreProfile(makeProfile(), criteria(FULL));
    expect(result.score).toBe(100);
    expect(result.excluded).toBe(false);
    expect(result.must_have_missing).toEqual([]);
    expect(result.breakdown.map((b) => [b.criterion, b.weight, b.match, b.points])).toEqual([
      ['title', 60, 1, 60],
      ['location', 20, 1, 20],
      ['years', 5, 1, 5],
      ['industry', 5, 1, 5],
      ['skills', 10, 1, 10],
    ]);
    expect(result.breakdown[0].reason).toBe("Senior Backend Engineer matches title 'Backend Engineer'; family software_engineering; seniority senior");
  });

  it('scores partial matches with exact values', () => {
    const profile = makeProfile({
      title: 'Backend Engineer',
      seniority: 'mid', // one level below senior: 0.5
      location: placedAt('San Francisco', 59.5), // 59.5 km from the metro's city, radius 40: (80 - 59.5) / 40
      years_experience: 3, // 2 below min 5: 1 - 2/5 = 0.6
      industry: 'Software Development', // only a past position is in the list: 0.5
      experience: [
        { title: 'Backend Engineer', company: 'Cloudy', industry: 'Software Development', start: '2023-01', end: null, description: '' },
        { title: 'Software Engineer', company: 'Acme Pay', industry: 'Financial Services', start: '2021-01', end: '2022-12', description: '' },
      ],
      skills: ['TypeScript'], // 1 of 2 wanted skills: 0.5
    });
    const result = scoreProfile(profile, criteria(FULL));
    // title (1 + 1 + 0.5) / 3 → 50; location 10.25; years 3; industry 2.5; skills 5 → 70.75 → 71
    expect(result.score).toBe(71);
    expect(result.breakdown.map((b) => [b.criterion, b.match, b.points])).toEqual([
      ['title', 0.83, 50],
      ['location', 0.51, 10],
      ['years', 0.6, 3],
      ['industry', 0.5, 3],
      ['skills', 0.5, 5],
    ]);
    expect(result.must_have_missing).toEqual([]);
  });

  it('scores location by distance (full in the radius, nothing from twice it), a listed country or region fully', () => {
    const c = criteria({ skills: ['TypeScript'], metro: 'san-francisco-bay-area' });
    const la = makeProfile({ metro: 'los-angeles', location: placedAt('Los Angeles') });
    const london = makeProfile({ metro: 'london', location: placedAt('London') });
    const location = (p: PersonProfile, cr: ResolvedCriteria) => scoreProfile(p, cr).breakdown.find((b) => b.criterion === 'location')!;
    expect(location(la, c).match).toBe(0);
    expect(location(london, c).match).toBe(0);
    expect(location(makeProfile({ location: placedAt('San Francisco', 30) }), c)).toMatchObject({ match: 1, reason: '30 km from San Francisco' });
    expect(location(makeProfile({ location: placedAt('San Francisco', 70) }), c)).toMatchObject({
      match: 0.25,
      reason: '70 km from San Francisco, beyond 40 km',
    });
    const leeds = criteria({ skills: ['TypeScript'], places: [{ name: 'Leeds', radius_km: 20 }] });
    expect(location(makeProfile({ location: placedAt('Leeds', 12) }), leeds)).toMatchObject({ match: 1, reason: '12 km from Leeds' });
    expect(location(makeProfile({ location: placedAt('Leeds', 30) }), leeds).match).toBe(0.5);
    const california = criteria({ skills: ['TypeScript'], places: ['California'] });
    expect(location(la, california)).toMatchObject({ match: 1, reason: 'in California' });
    expect(location(london, california).match).toBe(0);
    const anywhereInUs = criteria({ skills: ['TypeScript'], locations: ['United States'] });
    expect(scoreProfile(la, anywhereInUs).breakdown.find((b) => b.criterion === 'location')!.match).toBe(1);
    const listed = criteria({ skills: ['TypeScript'], metro: 'london', locations: ['LA'] });
    expect(scoreProfile(la, listed).breakdown.find((b) => b.criterion === 'location')!.match).toBe(1);
  });

  it('decays years linearly over 5 years outside the range, on either side', () => {
    const years = (y: number, range: { min?: number; max?: number }) =>
      scoreProfile(makeProfile({ years_experience: y }), criteria({ skills: ['TypeScript'], years_experience: range })).breakdown.find(
        (b) => b.criterion === 'years',
      )!.match;
    expect(years(7, { min: 5, max: 10 })).toBe(1);
    expect(years(12, { min: 5, max: 10 })).toBe(0.6);
    expect(years(20, { min: 5, max: 10 })).toBe(0);
    expect(years(1, { min: 5 })).toBe(0.2);
    expect(years(4, { max: 3 })).toBe(0.8);
  });

  it('matches titles by token overlap, ignoring case and seniority words', () => {
    expect(titleSimilarity('Senior Backend Engineer', 'backend engineer')).toBe(1);
    expect(titleSimilarity('Staff Software Engineer II', 'Software Engineer')).toBe(1);
    // Words weigh by how rare they are among known titles: sharing "engineer" says little.
    expect(titleSimilarity('Full Stack Engineer', 'Backend Engineer')).toBeLessThan(0.3);
    expect(titleSimilarity('Backend Developer', 'Backend Engineer')).toBeGreaterThan(0.6);
    expect(titleSimilarity('Product Manager', 'Product Designer')).toBeGreaterThan(0.3);
    expect(titleSimilarity('Product Manager', 'Product Designer')).toBeLessThan(0.7);
    expect(titleSimilarity('', 'Backend Engineer')).toBe(0);
    // Only a seniority word left: still compared rather than empty.
    expect(titleSimilarity('Lead', 'lead')).toBe(1);
  });

  it('matches the first wanted title fully and a later one at 0.9: the first is the one asked for', () => {
    const wanted = criteria({ titles: ['Head Chef', 'Chef'] });
    const title = (personTitle: string) => scoreProfile(makeProfile({ title: personTitle }), wanted).breakdown.find((b) => b.criterion === 'title')!;
    expect(title('Head Chef')).toMatchObject({ match: 1 });
    expect(title('Junior Chef')).toMatchObject({ match: 0.9 });
    expect(title('Junior Chef').reason).toBe("Junior Chef matches title 'Chef'");
  });

  it('matches a title under another known name and says which alias matched', () => {
    const title = (personTitle: string, wanted: string) =>
      scoreProfile(makeProfile({ title: personTitle }), criteria({ titles: [wanted] })).breakdown.find((b) => b.criterion === 'title')!;
    const ios = title('Senior Mobile Engineer', 'iOS Developer');
    expect(ios.match).toBe(1);
    expect(ios.reason).toBe("Senior Mobile Engineer matches title 'iOS Developer' ('iOS developer' is Mobile Engineer)");
    const serverSide = title('Server-side Developer', 'Backend Engineer');
    expect(serverSide.match).toBe(1);
    expect(serverSide.reason).toContain("('server-side developer' is Backend Engineer)");
    // The same words need no alias; another role of the family is only a partial match.
    expect(title('Backend Engineer', 'Backend Engineer').reason).toBe("Backend Engineer matches title 'Backend Engineer'");
    expect(title('Frontend Engineer', 'Server-side Developer').match).toBeLessThan(0.5);
    // A title that names the whole family covers its other titles, the exact one first.
    const umbrella = title('Senior Backend Engineer', 'Software Engineer');
    expect(umbrella.match).toBe(0.9);
    expect(umbrella.reason).toContain("('Software Engineer' covers Backend Engineer)");
    // Manager-and-up titles compare by department: the level is the seniority's business.
    expect(title('Director of Engineering', 'Head of Engineering').match).toBe(1);
    expect(title('Manager, Customer Success', 'Customer Support Manager').match).toBeLessThan(0.7);
    // …but a title that names the level asked for matches the department at another level only half.
    const levelled = (personTitle: string, seniority: 'manager' | 'director') =>
      scoreProfile(
        makeProfile({ title: personTitle, seniority, family: 'operations' }),
        criteria({ family: 'operations', titles: ['Operations Manager'], seniority: ['manager'] }),
      ).breakdown.find((b) => b.criterion === 'title')!;
    expect(levelled('Manager of Operations', 'manager').reason).toContain("matches title 'Operations Manager'");
    const director = levelled('Director of Operations', 'director');
    expect(director.reason).toContain('partly matches title');
    expect(director.reason).toContain('at another level');
    expect(director.match).toBeCloseTo((0.5 + 1 + 0.5) / 3, 2);
  });

  it('gives the same score to two different profiles that trade off evenly (ties)', () => {
    const c = criteria({ skills: ['TypeScript', 'Kubernetes'], metro: 'san-francisco-bay-area' });
    // In the metro without the skills (20 of 30) or next door with them (10 + 10 of 30).
    const local = makeProfile({ id: 'p1', skills: [] });
    const nextDoor = makeProfile({ id: 'p2', location: placedAt('San Francisco', 60) });
    const a = scoreProfile(local, c);
    const b = scoreProfile(nextDoor, c);
    expect(a.score).toBe(67);
    expect(b.score).toBe(67);
    expect(a.breakdown).not.toEqual(b.breakdown);
  });

  it('treats missing or empty profile fields as no match and never throws', () => {
    const empty = makeProfile({ title: '', industry: '', skills: [], experience: [] });
    const result = scoreProfile(empty, criteria(FULL));
    // title (0 + 1 + 1) / 3 → 40; location 20; years 5; industry 0; skills 0 → 65, capped to 40
    expect(result.breakdown.map((b) => [b.criterion, b.match])).toEqual([
      ['title', 0.67],
      ['location', 1],
      ['years', 1],
      ['industry', 0],
      ['skills', 0],
    ]);
    expect(result.score).toBe(40);
    expect(result.must_have_missing).toEqual(['TypeScript']);
    expect(result.breakdown[0].reason).toContain('no current title');

    const broken = { id: 'p0', first_name: 'X' } as unknown as PersonProfile;
    const r = scoreProfile(broken, criteria({ ...FULL, exclude_companies: ['Acme Pay'] }));
    expect(r.score).toBe(0);
    expect(r.excluded).toBe(false);
    expect(r.breakdown.every((b) => b.match === 0)).toBe(true);
    expect(r.breakdown.every((b) => b.reason.length > 0)).toBe(true);
  });

  it('caps the score at 40 when a must-have skill is missing', () => {
    const profile = makeProfile({ skills: ['Kubernetes'] });
    const result = scoreProfile(profile, criteria(FULL));
    expect(result.score).toBe(MUST_HAVE_CAP);
    expect(result.must_have_missing).toEqual(['TypeScript']);
    // The breakdown still shows the uncapped picture.
    expect(result.breakdown.reduce((s, b) => s + b.points, 0)).toBe(95);
    // Already below the cap: unchanged.
    const weak = makeProfile({
      skills: [],
      title: 'Accountant',
      family: 'accounting',
      seniority: 'junior',
      metro: 'london',
      location: placedAt('London'),
      industry: 'Accounting',
      experience: [],
    });
    expect(scoreProfile(weak, criteria(FULL)).score).toBeLessThan(MUST_HAVE_CAP);
  });

  it('scores 0 and flags people currently at an excluded company (case-insensitive)', () => {
    const result = scoreProfile(makeProfile({ company: 'ACME PAY' }), criteria({ ...FULL, exclude_companies: ['acme pay'] }));
    expect(result).toMatchObject({ score: 0, excluded: true });
    expect(result.breakdown).toHaveLength(5);
    // A past employer does not exclude.
    const moved = makeProfile({ company: 'Cloudy' });
    expect(scoreProfile(moved, criteria({ ...FULL, exclude_companies: ['Acme Pay'] }))).toMatchObject({ score: 100, excluded: false });
  });

  it('lets weights change the ranking', () => {
    const c = criteria({ titles: ['Backend Engineer'], skills: ['TypeScript', 'Kubernetes'] });
    const titleFit = makeProfile({ id: 'a', title: 'Backend Engineer', skills: [] });
    const skillFit = makeProfile({ id: 'b', title: 'Data Scientist', skills: ['TypeScript', 'Kubernetes'] });
    // Who a person is weighs most by default: title 60 of 70, skills 10.
    expect(scoreProfile(titleFit, c).score).toBe(86);
    expect(scoreProfile(skillFit, c).score).toBe(14);
    const skillsFirst = { title: 10, skills: 40 };
    expect(scoreProfile(titleFit, c, skillsFirst).score).toBe(20);
    expect(scoreProfile(skillFit, c, skillsFirst).score).toBe(80);
  });

  it('drops criteria whose weight is 0 and renormalises over the rest', () => {
    const profile = makeProfile({ title: 'Backend Engineer', seniority: 'mid', skills: ['TypeScript'] });
    const result = scoreProfile(profile, criteria(FULL), { location: 0, years: 0, industry: 0 });
    expect(result.breakdown.map((b) => b.criterion)).toEqual(['title', 'skills']);
    // (60 × 2.5/3 + 10 × 0.5) / 70 = 78.6 → 79
    expect(result.score).toBe(79);
    const none = scoreProfile(profile, criteria(FULL), { title: 0, location: 0, years: 0, industry: 0, skills: 0 });
    expect(none).toEqual({ score: 0, breakdown: [], must_have_missing: [], excluded: false });
  });

  it('normalises over present criteria only: a skills-only search scores 0–100 on skills', () => {
    const c = criteria({ skills: ['TypeScript', 'Kubernetes', 'PostgreSQL', 'Go'] });
    const result = scoreProfile(makeProfile(), c);
    expect(result.score).toBe(75);
    expect(result.breakdown).toEqual([
      { criterion: 'skills', weight: DEFAULT_WEIGHTS.skills, match: 0.75, points: 75, reason: 'has 3 of 4 wanted skills; missing Go' },
    ]);
    expect(scoreProfile(makeProfile({ skills: ['typescript', 'KUBERNETES', 'postgresql', 'go'] }), c).score).toBe(100);
  });

  it('counts family alone (1 equal, 0.5 adjacent, 0 otherwise) as the title criterion', () => {
    const c = criteria({ family: 'software_engineering' });
    expect(scoreProfile(makeProfile(), c).score).toBe(100);
    expect(scoreProfile(makeProfile({ family: 'devops_sre' }), c).score).toBe(50);
    expect(scoreProfile(makeProfile({ family: 'accounting' }), c).score).toBe(0);
  });

  it('gives every counted criterion a short non-empty reason and is deterministic', () => {
    const profile = makeProfile({ metro: 'los-angeles', location: placedAt('Los Angeles'), years_experience: 12, skills: ['Go'] });
    const a = scoreProfile(profile, criteria(FULL));
    const b = scoreProfile(profile, criteria(FULL));
    expect(a).toEqual(b);
    for (const entry of a.breakdown) {
      expect(entry.reason.length).toBeGreaterThan(0);
      expect(entry.reason.length).toBeLessThan(160);
    }
    expect(Number.isInteger(a.score)).toBe(true);
  });
});
