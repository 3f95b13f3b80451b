/**
 * Deterministic synthetic people (DESIGN.md §5). `createPersonGenerator(seed).person(i)` always
 * returns the same profile for the same (seed, i), whatever else was generated before: each person
 * gets its own PRNG state derived from a hash of seed and index (rng.ts).
 *
 * Half the people (even indices) are of the 22 role families, placed in the 68 old metros as the
 * corpus always had them, so every family keeps its density there. The other half are the
 * workforce of the markets recruiters hire in: any occupation, families included (a designer in
 * Leeds, a nurse in Lyon), in proportion to US employment (every occupation at least a floor, so
 * each fills a page), placed in proportion to population
 * (roles.ts, places.ts).
 */
import type { EducationEntry, ExperienceEntry, PersonProfile, ProjectEntry } from '../domain/profile';
import { COMPANIES } from './companies';
import { NAME_CULTURES, UNIVERSITIES, slugify } from './names';
import { createPlacer } from './places';
import { Rng } from './rng';
import { createRoles, type RoleSpec } from './roles';
import { createTexts, yearsText } from './texts';
import { SENIORITIES, SENIORITY_YEARS, detectSeniority } from '../reference/taxonomy';

/**
 * Which generator this is: a corpus loaded by another version is replaced, not topped up
 * (src/corpus/loader.ts). Change it whenever the same (seed, index) gives another person.
 */
export const GENERATOR_VERSION = '2026-11-28.family-managers.1';

export interface PersonGenerator {
  person(index: number): PersonProfile;
  /** Person i's role family ('' outside the families) without generating the rest: the loader's order. */
  familyOf(index: number): string;
}

/** Whether person i is of the role families in an old metro (the rest are the markets' workforce). */
export const isOldMetroFamilyPerson = (index: number) => index % 2 === 0;

// Careers end in the current month, 2026-11.
const NOW_MONTH = 2026 * 12 + 10;
const FIRST_MONTH = 1990 * 12;
const MONTH_TEXT: string[] = [];
for (let m = FIRST_MONTH; m <= NOW_MONTH; m++) {
  const mm = (m % 12) + 1;
  MONTH_TEXT.push(`${Math.floor(m / 12)}-${mm < 10 ? '0' : ''}${mm}`);
}
const UPDATED_FROM = Date.UTC(2025, 0, 1);
const UPDATED_SPAN = Date.UTC(2026, 10, 30, 23, 59, 59) - UPDATED_FROM;

const DEGREE_YEARS: Record<string, number> = {
  'Associate Degree in Nursing': 2,
  'Associate Degree': 2,
  Certificate: 1,
  'Juris Doctor': 3,
  'Doctor of Nursing Practice': 3,
  PhD: 5,
  'Master of Laws': 1,
};
/** Countries where a first degree usually takes three years. */
const THREE_YEAR_BACHELORS = new Set([
  'United Kingdom',
  'Germany',
  'France',
  'Switzerland',
  'Netherlands',
  'Italy',
  'Portugal',
  'Sweden',
  'Poland',
  'Australia',
]);
const SENIORITY_MIN_YEARS = SENIORITIES.map((s) => SENIORITY_YEARS[s][0]);
/** The level a title reads as (mid when it states none). */
const levelOf = (title: string) => SENIORITIES.indexOf(detectSeniority(title) ?? 'mid');

const CULTURE_SLUGS = NAME_CULTURES.map((c) => ({
  male: c.male.map(slugify),
  female: c.female.map(slugify),
  last: c.last.map(slugify),
  lastFemale: (c.lastFemale ?? c.last).map(slugify),
}));

/** Companies in some family's industries (where people outside their own role's industries often work). */
let commonPool: Int32Array | undefined;

export function createPersonGenerator(seed: number): PersonGenerator {
  const seed32 = Math.floor(seed) >>> 0;
  const rng = new Rng();
  const placer = createPlacer();
  const roles = createRoles();
  const texts = createTexts(rng);
  commonPool ??= Int32Array.from(new Set(roles.families.flatMap((f) => [...f.companies])));
  // Scratch buffers, reused across calls (person() is synchronous).
  const order = new Int32Array(roles.maxSkills + 16);
  const bounds = new Int32Array(8);

  /** k distinct indices from [0, n) into order[0..k). */
  function sample(n: number, k: number): void {
    for (let i = 0; i < n; i++) order[i] = i;
    for (let i = 0; i < k; i++) {
      const j = i + rng.int(n - i);
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }

  // Own industries mostly; otherwise a related role's, then any family's, rarely anything.
  function pickCompany(role: RoleSpec): number {
    if (rng.float() < role.text.affinity) return role.companies[rng.int(role.companies.length)];
    const r = rng.float();
    if (r < 0.6 && role.related.length > 0) {
      const pool = role.related[rng.int(role.related.length)];
      return pool[rng.int(pool.length)];
    }
    if (r < 0.95) return commonPool![rng.int(commonPool!.length)];
    return rng.int(COMPANIES.length);
  }

  function person(index: number): PersonProfile {
    if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`person index must be a non-negative integer, got ${index}`);
    rng.reseed(seed32, index);
    const id = 'p' + String(index).padStart(7, '0');
    const inOldMetro = isOldMetroFamilyPerson(index);

    // Role and place
    const role = drawRole(index);
    const where = inOldMetro ? placer.inMetro(rng, rng.weighted(placer.metroCum)) : placer.inMarkets(rng);
    const place = where.culture;

    // Name
    const ci = rng.weighted(place.cultureCum);
    const culture = NAME_CULTURES[ci];
    const slugs = CULTURE_SLUGS[ci];
    const female = rng.float() < 0.5;
    const fni = rng.int(female ? culture.female.length : culture.male.length);
    const firstName = female ? culture.female[fni] : culture.male[fni];
    const firstSlug = female ? slugs.female[fni] : slugs.male[fni];
    const lni = rng.int(culture.last.length);
    const lastName = female && culture.lastFemale ? culture.lastFemale[lni] : culture.last[lni];
    const lastSlug = female ? slugs.lastFemale[lni] : slugs.last[lni];

    // Title and level: a base title that states a level keeps it ("Pharmacy Manager").
    const baseTitle = role.baseTitles[rng.int(role.baseTitles.length)];
    const stated = role.statedLevel(baseTitle);
    const si = stated ? SENIORITIES.indexOf(stated) : rng.weighted(role.seniorityCum);
    const seniority = SENIORITIES[si];
    const title = stated ? baseTitle : role.titleFor(seniority, baseTitle, rng.int(12));
    const [ylo, yhi] = SENIORITY_YEARS[seniority];
    const years = ylo + rng.int(yhi - ylo + 1);

    // Skills: 5–15 of the role's, sometimes one or two of a related role's.
    const total = Math.min(5 + rng.int(11), role.skills.length);
    const extra = role.extraSkills.length > 0 && total >= 7 && rng.float() < 0.25 ? 1 + rng.int(2) : 0;
    const own = total - extra;
    sample(role.skills.length, own);
    const skills: string[] = [];
    for (let i = 0; i < own; i++) skills.push(role.skills[order[i]]);
    for (let e = 0; e < extra; e++) {
      const other = role.extraSkills[rng.int(role.extraSkills.length)];
      for (let tries = 0; tries < 4; tries++) {
        const s = other[rng.int(other.length)];
        if (!skills.includes(s)) {
          skills.push(s);
          break;
        }
      }
    }

    // Career span: floor(months / 12) === years.
    let months = years * 12 + rng.int(12);
    if (months < 1) months = 1;
    const careerStart = NOW_MONTH - months;
    const span = months + 1;
    let n = 1 + Math.round(years / (2 + rng.float() * 3));
    if (rng.float() < 0.3) n += rng.int(2);
    n = Math.max(1, Math.min(n, 6, Math.floor(span / 4) || 1));
    // bounds[k] = month offset where entry k (oldest first) starts; bounds[n] = span.
    let wsum = 0;
    for (let k = 0; k < n; k++) wsum += bounds[k + 1] = 50 + rng.int(100);
    bounds[0] = 0;
    let acc = 0;
    for (let k = 1; k < n; k++) {
      acc += bounds[k];
      let b = Math.round((span * acc) / wsum);
      if (b < bounds[k - 1] + 1) b = bounds[k - 1] + 1;
      if (b > span - (n - k)) b = span - (n - k);
      bounds[k] = b;
    }
    bounds[n] = span;

    const companyIdx = pickCompany(role);
    const company = COMPANIES[companyIdx];
    const experience: ExperienceEntry[] = [];
    let newerCompany = companyIdx;
    let newerSeniority = si;
    for (let k = n - 1; k >= 0; k--) {
      const current = k === n - 1;
      let esi = si;
      let eci = companyIdx;
      let etitle = title;
      if (!current) {
        // Highest seniority (not above today's) whose usual minimum years fit this point in the career.
        const yearsAt = bounds[k] / 12;
        esi = si === 0 ? 0 : 1;
        for (let r = si; r >= 1; r--) {
          if (SENIORITY_MIN_YEARS[r] <= yearsAt) {
            esi = r;
            break;
          }
        }
        if (esi > newerSeniority) esi = newerSeniority;
        const base = rng.float() < 0.7 ? baseTitle : role.baseTitles[rng.int(role.baseTitles.length)];
        etitle = role.statedLevel(base) ? base : role.titleFor(SENIORITIES[esi], base, rng.int(12));
        // A title that states a level above the next job's ("Clinical Services Director" before a
        // supervisor's job) is no step of this career: the next job's title instead.
        if (levelOf(etitle) > levelOf(experience[experience.length - 1].title)) etitle = experience[experience.length - 1].title;
        // Internal promotions keep the company; otherwise move on.
        eci = esi < newerSeniority && rng.float() < 0.25 ? newerCompany : pickCompany(role);
        if (eci === newerCompany && esi === newerSeniority) eci = pickCompany(role);
      }
      const startM = careerStart + bounds[k];
      let endM = careerStart + bounds[k + 1] - 1;
      if (!current && endM - startM >= 6 && rng.float() < 0.15) endM -= 1 + rng.int(3);
      const ec = COMPANIES[eci];
      experience.push({
        title: etitle,
        company: ec.name,
        industry: ec.industry,
        start: MONTH_TEXT[startM - FIRST_MONTH],
        end: current ? null : MONTH_TEXT[endM - FIRST_MONTH],
        description: texts.describeWork(esi, role.text, skills),
      });
      newerCompany = eci;
      newerSeniority = esi;
    }
    const previousCompany = experience.length > 1 && experience[1].company !== company.name ? experience[1].company : undefined;

    // Education (newest first)
    const text = role.text;
    const education: EducationEntry[] = [];
    const careerStartYear = Math.floor(careerStart / 12);
    const r = rng.float();
    const degrees =
      text.bachelors.length === 0 ? 0 : seniority === 'intern' ? 1 : r < text.noDegree ? 0 : r < 1 - text.twoDegrees || text.masters.length === 0 ? 1 : 2;
    if (degrees > 0) {
      const homeList = culture.home;
      const homeCountry = ci === place.dominantCulture || homeList.length === 0 || rng.float() < 0.45 ? undefined : homeList[rng.int(homeList.length)];
      const firstCountry =
        homeCountry ?? (culture.id === 'anglo' && !place.englishSpeaking ? (rng.float() < 0.5 ? 'United Kingdom' : 'United States') : place.eduCountry);
      const bachelor = text.bachelors[rng.int(text.bachelors.length)];
      const bachelorDegree = firstCountry === 'India' && bachelor === 'Bachelor of Engineering' ? 'Bachelor of Technology' : bachelor;
      const bLen = DEGREE_YEARS[bachelor] ?? (THREE_YEAR_BACHELORS.has(firstCountry) ? 3 : 4);
      let bEnd = seniority === 'intern' ? 2026 + rng.int(2) : careerStartYear - rng.int(2);
      if (degrees === 2) {
        const [mDegree, mField] = text.masters[rng.int(text.masters.length)];
        const mLen = DEGREE_YEARS[mDegree] ?? (mDegree === 'Master of Science' && rng.float() < 0.3 ? 1 : 2);
        let mEnd: number;
        if (years >= 5 && mDegree !== 'PhD' && rng.float() < 0.3) {
          mEnd = careerStartYear + 2 + rng.int(years - 2); // mid-career, part-time
        } else {
          mEnd = bEnd;
          bEnd = mEnd - mLen;
        }
        const mUnis = UNIVERSITIES[place.eduCountry];
        education.push({
          school: mUnis[rng.int(mUnis.length)],
          degree: mDegree,
          field: mField || text.fields[rng.int(text.fields.length)],
          start_year: mEnd - mLen,
          end_year: mEnd,
        });
      }
      const bUnis = UNIVERSITIES[firstCountry] ?? UNIVERSITIES[place.eduCountry];
      education.push({
        school: bUnis[rng.int(bUnis.length)],
        degree: bachelorDegree,
        field: text.fields[rng.int(text.fields.length)],
        start_year: bEnd - bLen,
        end_year: bEnd,
      });
    }

    // Certifications: 0–3 (nurses always hold at least one)
    const cr = rng.float();
    let certCount = cr < 0.45 ? 0 : cr < 0.75 ? 1 : cr < 0.92 ? 2 : 3;
    if (role.family === 'healthcare_nursing' && certCount === 0) certCount = 1 + rng.int(2);
    if (certCount > text.certs.length) certCount = text.certs.length;
    sample(text.certs.length, certCount);
    const certifications: string[] = [];
    for (let i = 0; i < certCount; i++) certifications.push(text.certs[order[i]]);

    // Languages: native first
    const languages = texts.pickLanguages(culture.languages[rng.int(culture.languages.length)], ci, place);

    // Projects: 0–3
    const pr = rng.float();
    const projectCount = Math.min(pr < 0.4 ? 0 : pr < 0.7 ? 1 : pr < 0.9 ? 2 : 3, text.projects.length);
    sample(text.projects.length, projectCount);
    const projects: ProjectEntry[] = [];
    for (let i = 0; i < projectCount; i++) {
      const name = text.projects[order[i]];
      projects.push({ name, description: texts.describeProject(name, skills) });
    }

    // Texts
    const summary = `${title} at ${company.name} | ${years === 0 ? 'early career' : `${yearsText(years)} of experience`}`;
    const about = texts.writeAbout(title, years, company.name, previousCompany, where.city.name, text, skills);

    // Connections: log-normal, most under 1,000; senior people and sellers have more.
    const u1 = rng.float() || 1e-9;
    const u2 = rng.float();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    const mu = 5.6 + si * 0.12 + (role.family === 'sales' || role.family === 'recruiting' ? 0.5 : 0);
    const connections = Math.min(30000, Math.max(20, Math.round(Math.exp(mu + z))));

    const updatedAt = new Date(UPDATED_FROM + Math.floor(rng.float() * UPDATED_SPAN)).toISOString();
    const openProfile = rng.float() < 0.25;
    const premium = rng.float() < 0.15;

    return {
      id,
      first_name: firstName,
      last_name: lastName,
      title,
      seniority,
      family: role.family,
      occupation: role.occupationOf(baseTitle, title, seniority),
      company: company.name,
      industry: company.industry,
      metro: where.metro,
      location: where.location,
      network_url: `https://network.example/in/${firstSlug}-${lastSlug}-${id}`,
      open_profile: openProfile,
      premium,
      summary,
      about,
      years_experience: years,
      experience,
      education,
      skills,
      certifications,
      languages,
      projects,
      connections,
      updated_at: updatedAt,
    };
  }

  /** Person i's role: the first draw from its reseeded rng, so familyOf can make it alone. */
  function drawRole(index: number): RoleSpec {
    return isOldMetroFamilyPerson(index) ? roles.families[rng.weighted(roles.familyCum)] : roles.workforceRole(rng.weighted(roles.workforceCum));
  }

  function familyOf(index: number): string {
    rng.reseed(seed32, index);
    return drawRole(index).family;
  }

  return { person, familyOf };
}
