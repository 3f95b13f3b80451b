import type { PersonProfile } from '../../src/domain/profile';
import { COMPANIES, COMPANIES_BY_INDUSTRY } from '../../src/corpus/companies';
import { createPersonGenerator, isOldMetroFamilyPerson } from '../../src/corpus/generator';
import { WORKFORCE_FLOOR_EMPLOYMENT, createRoles } from '../../src/corpus/roles';
import { distanceKm, gazetteer } from '../../src/reference/gazetteer';
import { occupations } from '../../src/reference/occupations';
import {
  COUNTRIES,
  INDUSTRIES,
  METROS,
  ROLE_FAMILIES,
  SENIORITIES,
  SENIORITY_TITLE_WORDS,
  SENIORITY_YEARS,
  SKILLS,
  buildTitle,
  canonicalIndustry,
  canonicalSkill,
  detectSeniority,
  findFamily,
  findMetro,
  searchIndustries,
} from '../../src/reference/taxonomy';

const NOW = '2026-11';
const rank = (s: string): number => (SENIORITIES as readonly string[]).indexOf(s);
const monthIndex = (ym: string): number => Number(ym.slice(0, 4)) * 12 + Number(ym.slice(5, 7)) - 1;

describe('reference data', () => {
  it('has about 20 role families with unique ids and well-sized lists', () => {
    expect(ROLE_FAMILIES.length).toBeGreaterThanOrEqual(18);
    const ids = ROLE_FAMILIES.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of ROLE_FAMILIES) {
      expect(f.id).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(f.label).not.toBe('');
      expect(f.titles.length).toBeGreaterThanOrEqual(4);
      expect(f.titles.length).toBeLessThanOrEqual(8);
      expect(f.skills.length).toBeGreaterThanOrEqual(15);
      expect(f.skills.length).toBeLessThanOrEqual(30);
      expect(new Set(f.skills).size).toBe(f.skills.length);
      expect(f.industries.length).toBeGreaterThanOrEqual(3);
      expect(f.industries.length).toBeLessThanOrEqual(8);
      expect(f.adjacent.length).toBeGreaterThanOrEqual(1);
      expect(f.adjacent.length).toBeLessThanOrEqual(3);
      expect(Object.keys(f).sort()).toEqual(['adjacent', 'id', 'industries', 'label', 'skills', 'titles']);
    }
  });

  it('references only existing industries and families', () => {
    const industries = new Set(INDUSTRIES);
    const ids = new Set(ROLE_FAMILIES.map((f) => f.id));
    for (const f of ROLE_FAMILIES) {
      for (const i of f.industries) expect({ family: f.id, industry: i, known: industries.has(i) }).toEqual({ family: f.id, industry: i, known: true });
      for (const a of f.adjacent) {
        expect(ids.has(a)).toBe(true);
        expect(a).not.toBe(f.id);
      }
    }
  });

  it('keeps base titles unique and free of seniority words', () => {
    const all = ROLE_FAMILIES.flatMap((f) => f.titles);
    expect(new Set(all.map((t) => t.toLowerCase())).size).toBe(all.length);
    for (const t of all) expect({ t, seniority: detectSeniority(t) }).toEqual({ t, seniority: undefined });
  });

  it('builds titles whose seniority can be detected again', () => {
    for (const f of ROLE_FAMILIES) {
      for (const s of SENIORITIES) {
        for (let v = 0; v < 6; v++) {
          for (const base of f.titles) {
            const title = buildTitle(s, f.id, base, v);
            expect(title.trim()).toBe(title);
            expect({ title, seniority: detectSeniority(title) ?? 'mid' }).toEqual({ title, seniority: s });
          }
        }
      }
    }
    expect(buildTitle('senior', 'software_engineering', 'Backend Engineer')).toBe('Senior Backend Engineer');
    expect(buildTitle('director', 'software_engineering', 'Backend Engineer')).toBe('Director of Engineering');
    expect(detectSeniority('Sr. Data Engineer')).toBe('senior');
    expect(detectSeniority('Senior Director of Sales')).toBe('director');
    expect(detectSeniority('VP of Engineering')).toBe('vp');
    expect(detectSeniority('Senior Product Manager')).toBe('senior');
    expect(detectSeniority('Product Manager')).toBeUndefined();
    expect(detectSeniority('Engineering Manager')).toBe('manager');
  });

  it('has seniority years and title words for every seniority', () => {
    expect(Object.keys(SENIORITY_YEARS).sort()).toEqual([...SENIORITIES].sort());
    expect(Object.keys(SENIORITY_TITLE_WORDS).sort()).toEqual([...SENIORITIES].sort());
    for (const s of SENIORITIES) {
      const [lo, hi] = SENIORITY_YEARS[s];
      expect(Number.isInteger(lo) && Number.isInteger(hi) && lo >= 0 && lo <= hi).toBe(true);
      expect(SENIORITY_TITLE_WORDS[s].length).toBeGreaterThan(0);
    }
    expect(SENIORITY_YEARS.senior).toEqual([5, 10]);
  });

  it('has about 60 metros with unique ids, existing neighbors and unambiguous names', () => {
    expect(METROS.length).toBeGreaterThanOrEqual(55);
    const ids = METROS.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const us = METROS.filter((m) => m.country === 'United States').length;
    expect(us * 2).toBeGreaterThan(METROS.length);
    const owner = new Map<string, string>();
    for (const m of METROS) {
      expect(m.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      for (const field of [m.label, m.city, m.region, m.country]) expect(field.trim()).not.toBe('');
      expect(m.neighbors.length).toBeGreaterThanOrEqual(1);
      expect(m.neighbors.length).toBeLessThanOrEqual(3);
      for (const n of m.neighbors) {
        expect(ids).toContain(n);
        expect(n).not.toBe(m.id);
      }
      for (const key of [m.id, m.label, m.city, ...m.aliases]) {
        const k = key.toLowerCase();
        expect({ key, metro: owner.get(k) ?? m.id }).toEqual({ key, metro: m.id });
        owner.set(k, m.id);
        expect(findMetro(key)?.id).toBe(m.id);
      }
    }
    expect(COUNTRIES).toEqual([...new Set(METROS.map((m) => m.country))].sort());
    for (const region of ['Canada', 'United Kingdom', 'Germany', 'India', 'Singapore', 'Brazil', 'Mexico']) expect(COUNTRIES).toContain(region);
  });

  it('has about 150 unique Title Case industries, sorted', () => {
    expect(INDUSTRIES.length).toBeGreaterThanOrEqual(140);
    expect(new Set(INDUSTRIES.map((i) => i.toLowerCase())).size).toBe(INDUSTRIES.length);
    for (const name of INDUSTRIES) {
      for (const word of name.split(' ')) expect({ name, word, ok: /^([A-Z]|&$)/.test(word) }).toEqual({ name, word, ok: true });
      expect(name).not.toMatch(/[,/]/);
    }
    expect([...INDUSTRIES].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))).toEqual(INDUSTRIES);
    expect(INDUSTRIES).toEqual(expect.arrayContaining(['Software Development', 'Financial Services', 'Hospital & Health Care', 'Retail', 'Biotechnology']));
  });

  it('derives SKILLS as the sorted union of family skills', () => {
    const union = new Set(ROLE_FAMILIES.flatMap((f) => f.skills));
    expect(new Set(SKILLS)).toEqual(union);
    expect(SKILLS.length).toBe(union.size);
    expect(new Set(SKILLS.map((s) => s.toLowerCase())).size).toBe(SKILLS.length);
    for (let i = 1; i < SKILLS.length; i++) expect(SKILLS[i - 1].toLowerCase() <= SKILLS[i].toLowerCase()).toBe(true);
    for (const s of SKILLS) expect(canonicalSkill(s.toUpperCase())).toBe(s);
  });

  it('has a few thousand companies with unique names and reference industries', () => {
    expect(COMPANIES.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(COMPANIES.map((c) => c.name.toLowerCase())).size).toBe(COMPANIES.length);
    const industries = new Set(INDUSTRIES);
    for (const c of COMPANIES) {
      expect(industries.has(c.industry)).toBe(true);
      expect(c.name).toMatch(/^[A-Z][A-Za-z.&' -]+$/);
    }
    for (const f of ROLE_FAMILIES) for (const i of f.industries) expect(COMPANIES_BY_INDUSTRY.get(i)?.length ?? 0).toBeGreaterThanOrEqual(10);
  });
});

describe('reference lookups', () => {
  it('finds metros by id, alias, city and label, case-insensitively', () => {
    expect(findMetro('NYC')?.id).toBe('new-york-city');
    expect(findMetro('nyc')?.id).toBe('new-york-city');
    expect(findMetro('Bay Area')?.id).toBe('san-francisco-bay-area');
    expect(findMetro('SF')?.id).toBe('san-francisco-bay-area');
    expect(findMetro('  san-francisco-bay-area ')?.id).toBe('san-francisco-bay-area');
    expect(findMetro('Bengaluru')?.id).toBe('bangalore');
    expect(findMetro('bangalore')?.id).toBe('bangalore');
    expect(findMetro('Greater London')?.id).toBe('london');
    expect(findMetro('Zurich')?.id).toBe('zurich');
    expect(findMetro('Zürich')?.id).toBe('zurich');
    expect(findMetro('Atlantis')).toBeUndefined();
  });

  it('finds families by id, case-insensitively', () => {
    expect(findFamily('software_engineering')?.label).toBe('Software Engineering');
    expect(findFamily('SOFTWARE_ENGINEERING')?.id).toBe('software_engineering');
    expect(findFamily('astronaut')).toBeUndefined();
  });

  it('canonicalises industries and skills', () => {
    expect(canonicalIndustry('software development')).toBe('Software Development');
    expect(canonicalIndustry('HOSPITAL & HEALTH CARE')).toBe('Hospital & Health Care');
    expect(canonicalIndustry('Hospital and Health Care')).toBe('Hospital & Health Care');
    expect(canonicalIndustry('Computer Software')).toBe('Software Development');
    expect(canonicalIndustry('Underwater Basket Weaving')).toBeUndefined();
    for (const i of INDUSTRIES) expect(canonicalIndustry(i.toLowerCase())).toBe(i);
    expect(canonicalSkill('typescript')).toBe('TypeScript');
    expect(canonicalSkill('k8s')).toBe('Kubernetes');
    expect(canonicalSkill('Postgres')).toBe('PostgreSQL');
    expect(canonicalSkill('gaap')).toBe('GAAP');
    expect(canonicalSkill('juggling')).toBeUndefined();
  });

  it('searches industries with prefix matches first and a limit', () => {
    const all = searchIndustries('');
    expect(all).toEqual(INDUSTRIES.slice(0, 200));
    expect(searchIndustries(undefined, 5)).toEqual(INDUSTRIES.slice(0, 5));

    const hits = searchIndustries('ma');
    expect(hits.length).toBeGreaterThan(3);
    const firstInner = hits.findIndex((h) => !h.toLowerCase().startsWith('ma'));
    expect(firstInner).toBeGreaterThan(0);
    const prefix = hits.slice(0, firstInner);
    const inner = hits.slice(firstInner);
    expect(prefix).toEqual(expect.arrayContaining(['Management Consulting', 'Marketing & Advertising', 'Machinery']));
    for (const h of inner) expect(h.toLowerCase().startsWith('ma')).toBe(false);
    for (const h of hits) expect(h.toLowerCase()).toContain('ma');
    const sorted = (xs: string[]) => [...xs].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    expect(prefix).toEqual(sorted(prefix));
    expect(inner).toEqual(sorted(inner));
    expect(hits.length).toBe(INDUSTRIES.filter((i) => i.toLowerCase().includes('ma')).length);

    expect(searchIndustries('MA', 2)).toEqual(prefix.slice(0, 2));
    expect(searchIndustries('health')).toEqual(expect.arrayContaining(['Hospital & Health Care', 'Mental Health Care']));
    expect(searchIndustries('zzzz')).toEqual([]);
  });
});

describe('person generator', () => {
  it('is deterministic per (seed, index) and independent of call order', () => {
    const a = createPersonGenerator(42);
    const b = createPersonGenerator(42);
    expect(a.person(123)).toEqual(b.person(123));
    const forward = Array.from({ length: 100 }, (_, i) => a.person(i));
    const backward = Array.from({ length: 100 }, (_, i) => b.person(99 - i)).reverse();
    expect(backward).toEqual(forward);
    expect(a.person(5)).toEqual(forward[5]);
  });

  it('gives different people for different indices and seeds', () => {
    const g = createPersonGenerator(1);
    const strip = (p: PersonProfile) => ({ ...p, id: '', network_url: '' });
    expect(strip(g.person(1))).not.toEqual(strip(g.person(2)));
    expect(strip(createPersonGenerator(2).person(1))).not.toEqual(strip(g.person(1)));
    expect(g.person(42).id).toBe('p0000042');
  });

  it("tells a person's family without generating the person (the loader's order)", () => {
    const g = createPersonGenerator(7);
    for (let i = 0; i < 500; i++) expect(g.familyOf(i)).toBe(g.person(i).family);
  });

  it("gives a family's managers and up its management occupation, where the family has one", () => {
    const roles = createRoles();
    const of = (family: string) => roles.families.find((r) => r.family === family)!;
    expect(of('finance').occupationOf('Financial Analyst', 'Director of Finance', 'director').onet_code).toBe('11-3031.00');
    expect(of('finance').occupationOf('Financial Analyst', 'Senior Financial Analyst', 'senior').onet_code).toBe('13-2051.00');
    expect(of('supply_chain').occupationOf('Buyer', 'Logistics Manager', 'manager').onet_code).toBe('11-3071.00');
    // Software engineering has no management occupation of its own in the reviewed table.
    expect(of('software_engineering').occupationOf('Backend Engineer', 'Director of Engineering', 'director').onet_code).toBe('15-1252.00');
  });

  it('draws every civilian occupation outside the families at least at the floor, and no military one', () => {
    const roles = createRoles();
    const outside = roles.workforceCum.length - roles.families.length;
    const share = new Map<string, number>();
    for (let i = 0; i < outside; i++) {
      const weight = roles.workforceCum[i] - (i > 0 ? roles.workforceCum[i - 1] : 0);
      share.set(roles.workforceRole(i).occupationOf('', '', 'mid').onet_code, weight);
    }
    const civilian = occupations().all.filter((o) => o.family === null && !o.code.startsWith('55-'));
    expect(share.size).toBe(civilian.length);
    for (const o of civilian) expect(share.get(o.code)).toBeGreaterThanOrEqual(WORKFORCE_FLOOR_EMPLOYMENT);
    // Fishers have no OEWS employment (OEWS counts employees); the floor still gives them people.
    expect(share.get('45-3031.00')).toBe(WORKFORCE_FLOOR_EMPLOYMENT);
    expect([...share.keys()].some((c) => c.startsWith('55-'))).toBe(false);
    // Big occupations keep their employment (cashiers).
    expect(share.get('41-2011.00')).toBe(occupations().byCode('41-2011.00')!.employment);
  });

  it('rejects invalid indices', () => {
    const g = createPersonGenerator(1);
    expect(() => g.person(-1)).toThrow(RangeError);
    expect(() => g.person(1.5)).toThrow(RangeError);
  });

  describe('over 2,000 profiles', () => {
    const N = 2000;
    const people = (() => {
      const g = createPersonGenerator(2026);
      return Array.from({ length: N }, (_, i) => g.person(i));
    })();
    const skills = new Set(SKILLS);
    const industries = new Set(INDUSTRIES);
    const companies = new Map(COMPANIES.map((c) => [c.name, c.industry]));
    const families = new Map(ROLE_FAMILIES.map((f) => [f.id, f]));
    const metros = new Map(METROS.map((m) => [m.id, m]));

    /** Collects violations so 2,000 profiles cost one assertion, with readable failures. */
    function checker() {
      const problems: string[] = [];
      const check = (ok: boolean, what: string, p: PersonProfile) => {
        if (!ok && problems.length < 50) problems.push(`${p.id}: ${what}`);
      };
      return { problems, check };
    }
    const PROFILE_KEYS = [
      'id',
      'first_name',
      'last_name',
      'title',
      'seniority',
      'family',
      'occupation',
      'company',
      'industry',
      'metro',
      'location',
      'network_url',
      'open_profile',
      'premium',
      'summary',
      'about',
      'years_experience',
      'experience',
      'education',
      'skills',
      'certifications',
      'languages',
      'projects',
      'connections',
      'updated_at',
    ]
      .sort()
      .join();
    const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
    const LANGUAGE = /^[A-Z][a-z]+ \((native|fluent|full professional|professional|conversational|elementary)\)$/;

    function undefinedPaths(value: unknown, path: string, out: string[]): void {
      if (value === undefined) out.push(path);
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) undefinedPaths(v, `${path}.${k}`, out);
    }

    it('fills every field with well-formed values', () => {
      const { problems, check } = checker();
      const ids = new Set<string>();
      people.forEach((p, i) => {
        const undef: string[] = [];
        undefinedPaths(p, 'profile', undef);
        check(undef.length === 0, `undefined at ${undef.join(', ')}`, p);
        check(Object.keys(p).sort().join() === PROFILE_KEYS, `fields ${Object.keys(p).join()}`, p);
        check(p.id === `p${String(i).padStart(7, '0')}`, 'id', p);
        ids.add(p.id);
        check(p.first_name.trim() !== '' && p.last_name.trim() !== '', 'name', p);
        check(SENIORITIES.includes(p.seniority), 'seniority', p);
        const family = families.get(p.family);
        const occupation = p.occupation ? occupations().byCode(p.occupation.onet_code) : undefined;
        check(
          !!p.occupation && /^\d\d-\d{4}\.\d\d$/.test(p.occupation.onet_code) && occupation?.title === p.occupation.title,
          `occupation ${JSON.stringify(p.occupation)}`,
          p,
        );
        // Even indices are of the families (each base title tied to an occupation, which may be coded to a
        // neighbouring family: SOC has no code of its own for product managers or recruiters); the rest
        // are the markets' workforce: of a family the same way, or of an occupation outside the families.
        if (isOldMetroFamilyPerson(i) || p.family !== '')
          check(family !== undefined && occupation?.family !== null, `family ${p.family} / ${occupation?.family}`, p);
        else check(occupation !== undefined && occupation.family === null, `outside the families: ${p.occupation?.onet_code}`, p);
        check(p.title.trim() !== '' && (detectSeniority(p.title) ?? 'mid') === p.seniority, `title "${p.title}" vs ${p.seniority}`, p);
        check(companies.get(p.company) === p.industry, 'company industry', p);
        check(industries.has(p.industry), 'industry', p);
        const l = p.location;
        const city = gazetteer()
          .named(l.locality)
          .find((c) => c.fullName === l.name && l.lat !== null && l.lon !== null && distanceKm(c.lat, c.lon, l.lat, l.lon) <= 15.01);
        check(city !== undefined && city.country === l.country && (city.regionName ?? '') === l.region, `location ${JSON.stringify(l)} near its town`, p);
        const metro = metros.get(p.metro);
        const metroPlace = gazetteer().metro(p.metro);
        if (isOldMetroFamilyPerson(i)) check(metro !== undefined, 'family people are in an old metro', p);
        else check(p.metro === '' || metro !== undefined, 'metro', p);
        // Family people within about 30 km of their metro's city; anyone else within its radius.
        if (metroPlace && l.lat !== null && l.lon !== null) {
          const km = distanceKm(metroPlace.place.lat, metroPlace.place.lon, l.lat, l.lon);
          check(km <= (isOldMetroFamilyPerson(i) ? 40 : metroPlace.radiusKm + 15), `${Math.round(km)} km from ${p.metro}`, p);
        }
        check(/^https:\/\/network\.example\/in\/[a-z0-9]+(-[a-z0-9]+)*-p\d{7}$/.test(p.network_url), `url ${p.network_url}`, p);
        check(p.network_url.endsWith(`-${p.id}`), 'url id', p);
        check(typeof p.open_profile === 'boolean' && typeof p.premium === 'boolean', 'flags', p);
        check(p.summary.includes(p.title) && p.summary.includes(p.company) && !p.summary.includes('\n'), 'summary', p);
        check(p.about.length > 40 && p.skills.some((s) => p.about.includes(s)), 'about', p);

        const [lo, hi] = SENIORITY_YEARS[p.seniority];
        check(Number.isInteger(p.years_experience) && p.years_experience >= lo && p.years_experience <= hi, 'years', p);

        check(p.skills.length >= 5 && p.skills.length <= 15, 'skill count', p);
        check(new Set(p.skills).size === p.skills.length, 'duplicate skill', p);
        check(p.family !== '' ? p.skills.every((s) => skills.has(s)) : p.skills.every((s) => s.trim() !== ''), 'unknown skill', p);
        if (family) check(p.skills.filter((s) => !family.skills.includes(s)).length <= 2, 'off-family skills', p);

        check(p.certifications.length <= 3 && new Set(p.certifications).size === p.certifications.length, 'certifications', p);
        check(
          p.certifications.every((c) => c.trim() !== ''),
          'empty certification',
          p,
        );

        check(p.languages.length >= 1 && p.languages.length <= 3, 'language count', p);
        check(
          p.languages.every((l) => LANGUAGE.test(l)),
          `languages ${p.languages.join('; ')}`,
          p,
        );
        check(
          p.languages.some((l) => l.endsWith('(native)')),
          'no native language',
          p,
        );
        check(new Set(p.languages.map((l) => l.split(' ')[0])).size === p.languages.length, 'duplicate language', p);

        check(p.projects.length <= 3, 'project count', p);
        check(
          p.projects.every((pr) => pr.name.trim() !== '' && pr.description.trim() !== ''),
          'project text',
          p,
        );

        check(Number.isInteger(p.connections) && p.connections >= 20 && p.connections <= 30000, 'connections', p);
        check(new Date(p.updated_at).toISOString() === p.updated_at && ['2025', '2026'].includes(p.updated_at.slice(0, 4)), 'updated_at', p);
      });
      expect(problems).toEqual([]);
      expect(ids.size).toBe(N);
    });

    it('has consistent, ordered experience ending now', () => {
      const { problems, check } = checker();
      for (const p of people) {
        const xp = p.experience;
        check(xp.length >= 1 && xp.length <= 6, 'experience count', p);
        check(xp[0].end === null, 'current entry has an end', p);
        check(xp[0].title === p.title && xp[0].company === p.company && xp[0].industry === p.industry, 'current entry', p);
        for (let k = 0; k < xp.length; k++) {
          const e = xp[k];
          check(MONTH.test(e.start) && e.start <= NOW, `start ${e.start}`, p);
          check(e.title.trim() !== '' && e.description.trim() !== '', 'entry text', p);
          check(companies.get(e.company) === e.industry, 'entry company industry', p);
          if (k > 0) {
            check(e.end !== null && MONTH.test(e.end), `end ${e.end}`, p);
            check(e.end !== null && e.start <= e.end && e.end < xp[k - 1].start, `order ${e.start}..${e.end} before ${xp[k - 1].start}`, p);
            // Newer entries never have a lower seniority.
            check(
              rank(detectSeniority(e.title) ?? 'mid') <= rank(detectSeniority(xp[k - 1].title) ?? 'mid'),
              `progression ${e.title} -> ${xp[k - 1].title}`,
              p,
            );
          }
        }
        const careerMonths = monthIndex(NOW) - monthIndex(xp[xp.length - 1].start);
        check(Math.floor(careerMonths / 12) === p.years_experience, `career ${careerMonths} months vs ${p.years_experience} years`, p);
      }
      expect(problems).toEqual([]);
    });

    it('has plausible education', () => {
      for (const p of people) {
        expect(p.education.length).toBeLessThanOrEqual(2);
        for (const e of p.education) {
          expect(e.school.trim()).not.toBe('');
          expect(e.degree.trim()).not.toBe('');
          expect(e.field.trim()).not.toBe('');
          expect(Number.isInteger(e.start_year) && Number.isInteger(e.end_year)).toBe(true);
          expect(e.start_year).toBeLessThan(e.end_year);
          expect(e.start_year).toBeGreaterThanOrEqual(1960);
          expect(e.end_year).toBeLessThanOrEqual(2028);
        }
        if (p.education.length === 2) expect(p.education[0].end_year).toBeGreaterThanOrEqual(p.education[1].end_year);
      }
    });

    it('follows the intended distributions', () => {
      const count = <K extends string>(key: (p: PersonProfile) => K) => {
        const m = new Map<K, number>();
        for (const p of people) m.set(key(p), (m.get(key(p)) ?? 0) + 1);
        return m;
      };
      const familyPeople = people.filter((_, i) => isOldMetroFamilyPerson(i));
      const others = people.filter((_, i) => !isOldMetroFamilyPerson(i));
      const byFamily = new Map<string, number>();
      for (const p of familyPeople) byFamily.set(p.family, (byFamily.get(p.family) ?? 0) + 1);
      const top = [...byFamily.entries()].sort((a, b) => b[1] - a[1])[0][0];
      expect(top).toBe('software_engineering');
      expect(byFamily.size).toBe(ROLE_FAMILIES.length);

      const bySeniority = count((p) => p.seniority);
      expect(((bySeniority.get('mid') ?? 0) + (bySeniority.get('senior') ?? 0)) / N).toBeGreaterThan(0.4);

      const open = people.filter((p) => p.open_profile).length / N;
      const premium = people.filter((p) => p.premium).length / N;
      expect(open).toBeGreaterThan(0.18);
      expect(open).toBeLessThan(0.32);
      expect(premium).toBeGreaterThan(0.09);
      expect(premium).toBeLessThan(0.21);

      const connections = people.map((p) => p.connections).sort((a, b) => a - b);
      expect(connections[Math.floor(N / 2)]).toBeLessThan(1000);
      expect(connections.filter((c) => c < 1000).length / N).toBeGreaterThan(0.6);
      expect(connections[N - 1]).toBeGreaterThan(1000);

      const us = familyPeople.filter((p) => metros.get(p.metro)!.country === 'United States').length / familyPeople.length;
      expect(us).toBeGreaterThan(0.4);
      expect(new Set(familyPeople.map((p) => p.metro)).size).toBeGreaterThan(50);
      // Outside the families: many occupations, the markets recruiters hire in, most of them beyond the old metros.
      expect(new Set(others.map((p) => p.occupation!.onet_code)).size).toBeGreaterThan(150);
      const markets = new Set(others.map((p) => p.location.country));
      for (const c of ['US', 'CA', 'GB', 'IE', 'DE', 'FR', 'NL', 'ES', 'IT', 'PL', 'SE', 'AU', 'IN', 'JP', 'BR', 'MX']) expect(markets).toContain(c);
      expect(others.filter((p) => p.metro === '').length / others.length).toBeGreaterThan(0.4);
      // The markets' workforce holds the families' roles too, in their share of US employment (about
      // a quarter), so a family has people beyond the old metros (a designer in Leeds).
      const marketFamilyShare = others.filter((p) => p.family !== '').length / others.length;
      expect(marketFamilyShare).toBeGreaterThan(0.18);
      expect(marketFamilyShare).toBeLessThan(0.3);
      expect(others.filter((p) => p.family === 'software_engineering' && p.metro === '').length).toBeGreaterThan(0);

      const natives = count((p) => p.languages.find((l) => l.endsWith('(native)'))!.split(' ')[0]);
      expect(natives.size).toBeGreaterThanOrEqual(8);

      const withAdjacent = familyPeople.filter((p) => p.skills.some((s) => !families.get(p.family)!.skills.includes(s))).length;
      expect(withAdjacent).toBeGreaterThan(0);
      expect(people.filter((p) => p.experience.length > 1).length / N).toBeGreaterThan(0.5);
    });
  });
});
