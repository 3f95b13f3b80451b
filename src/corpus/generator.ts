/**
 * Deterministic synthetic people. `createPersonGenerator(seed).person(i)` always returns the same
 * profile for the same (seed, i), whatever else was generated before: each person gets its own
 * PRNG state derived from a hash of seed and index.
 */
import type { EducationEntry, ExperienceEntry, PersonProfile, ProjectEntry, Seniority } from '../domain/profile';
import { COMPANIES, COMPANIES_BY_INDUSTRY } from './companies';
import familyTextData from './data/family-text.json';
import { NAME_CULTURES, UNIVERSITIES, slugify } from './names';
import { METROS, ROLE_FAMILIES, SENIORITIES, SENIORITY_YEARS, buildTitle } from '../reference/taxonomy';

export interface PersonGenerator {
  person(index: number): PersonProfile;
}

// ---------------------------------------------------------------------------------------------
// Time frame: careers end in the current month, 2026-11.
// ---------------------------------------------------------------------------------------------

const NOW_MONTH = 2026 * 12 + 10;
const FIRST_MONTH = 1990 * 12;
const MONTH_TEXT: string[] = [];
for (let m = FIRST_MONTH; m <= NOW_MONTH; m++) {
  const mm = (m % 12) + 1;
  MONTH_TEXT.push(`${Math.floor(m / 12)}-${mm < 10 ? '0' : ''}${mm}`);
}
const UPDATED_FROM = Date.UTC(2025, 0, 1);
const UPDATED_SPAN = Date.UTC(2026, 10, 30, 23, 59, 59) - UPDATED_FROM;

// ---------------------------------------------------------------------------------------------
// PRNG: sfc32, seeded per person from a murmur3-style hash of (seed, index).
// ---------------------------------------------------------------------------------------------

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

class Rng {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  reseed(seed: number, index: number): void {
    const h1 = fmix32((seed ^ 0x9e3779b9) >>> 0);
    // fmix32 is a bijection, so distinct indices (below 2^32) get distinct states.
    const h2 = fmix32((h1 ^ (index >>> 0)) >>> 0);
    const h3 = fmix32((h2 ^ Math.floor(index / 4294967296) ^ 0x632be5ab) >>> 0);
    this.a = h2;
    this.b = h3;
    this.c = fmix32((h3 + 0x3c6ef372) >>> 0);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** [0, 1) */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** [0, n) */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.float() * xs.length)];
  }

  /** Index by cumulative weights. */
  weighted(cum: Float64Array): number {
    const r = this.float() * cum[cum.length - 1];
    let i = 0;
    while (cum[i] <= r) i++;
    return i;
  }
}

function cumulative(weights: number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let s = 0;
  for (let i = 0; i < weights.length; i++) out[i] = s += weights[i];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Family texts (data/family-text.json)
// ---------------------------------------------------------------------------------------------

interface FamilyText {
  /** Relative share of the corpus. */
  weight: number;
  /** Probability the employer is in one of the family's industries. */
  affinity: number;
  /** Gerund phrase: "… years of experience <phrase>", "passionate about <phrase>". */
  phrase: string;
  /** Lower-case work objects for experience descriptions. */
  objects: string[];
  projects: string[];
  certs: string[];
  fields: string[];
  bachelors: string[];
  /** [degree, field or '' for one of `fields`] pairs */
  masters: string[][];
  /** Share of people with two degrees. */
  twoDegrees: number;
}

const FAMILY_TEXT: Record<string, FamilyText> = familyTextData;

const DEGREE_YEARS: Record<string, number> = {
  'Associate Degree in Nursing': 2,
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

interface FamilyInfo {
  text: FamilyText;
  /** Company indices in the family's industries. */
  pool: Int32Array;
  skillCount: number;
  adjacent: number[];
}

const FAMILY_INDEX = new Map(ROLE_FAMILIES.map((f, i) => [f.id, i]));
const FAMILIES: FamilyInfo[] = ROLE_FAMILIES.map((f) => {
  const text = FAMILY_TEXT[f.id];
  if (!text) throw new Error(`corpus generator: no texts for family ${f.id}`);
  const pool: number[] = [];
  for (const ind of f.industries) pool.push(...(COMPANIES_BY_INDUSTRY.get(ind) ?? []));
  if (pool.length === 0) throw new Error(`corpus generator: no companies for family ${f.id}`);
  return {
    text,
    pool: Int32Array.from(pool),
    skillCount: f.skills.length,
    adjacent: f.adjacent.map((id) => FAMILY_INDEX.get(id) ?? -1).filter((i) => i >= 0),
  };
});
/** Companies in any family's industries. */
const COMMON_POOL = Int32Array.from([...new Set(ROLE_FAMILIES.flatMap((f) => f.industries))].flatMap((ind) => [...(COMPANIES_BY_INDUSTRY.get(ind) ?? [])]));
const FAMILY_CUM = cumulative(ROLE_FAMILIES.map((f) => FAMILY_TEXT[f.id].weight));
const MAX_SKILLS = Math.max(...ROLE_FAMILIES.map((f) => f.skills.length), 16);

const SENIORITY_WEIGHTS: Record<Seniority, number> = {
  intern: 2,
  junior: 11,
  mid: 28,
  senior: 27,
  lead: 10,
  manager: 10,
  director: 7,
  vp: 3,
  cxo: 2,
};
const SENIORITY_CUM = cumulative(SENIORITIES.map((s) => SENIORITY_WEIGHTS[s]));
const SENIORITY_MIN_YEARS = SENIORITIES.map((s) => SENIORITY_YEARS[s][0]);

// ---------------------------------------------------------------------------------------------
// Places and cultures
// ---------------------------------------------------------------------------------------------

type Weights = Record<string, number>;

interface CountryProfile {
  language: string;
  cultures: Weights;
}

const COUNTRY_PROFILES: Record<string, CountryProfile> = {
  'United States': {
    language: 'English',
    cultures: {
      anglo: 52,
      hispanic: 14,
      portuguese: 1,
      french: 1,
      italian: 3,
      german: 3,
      dutch: 0.5,
      nordic: 1,
      polish: 2,
      east_slavic: 2,
      chinese: 6,
      indian: 9,
      arabic: 2,
      west_african: 3,
      japanese: 1,
      korean: 2,
    },
  },
  Canada: {
    language: 'English',
    cultures: {
      anglo: 45,
      hispanic: 3,
      portuguese: 2,
      french: 8,
      italian: 3,
      german: 2,
      dutch: 1,
      polish: 2,
      east_slavic: 3,
      chinese: 12,
      indian: 13,
      arabic: 3,
      west_african: 2,
      japanese: 1,
      korean: 2,
    },
  },
  'United Kingdom': {
    language: 'English',
    cultures: {
      anglo: 62,
      hispanic: 2,
      portuguese: 2,
      french: 3,
      italian: 3,
      german: 2,
      dutch: 1,
      nordic: 1,
      polish: 5,
      east_slavic: 2,
      chinese: 4,
      indian: 9,
      arabic: 3,
      west_african: 5,
    },
  },
  Ireland: {
    language: 'English',
    cultures: { anglo: 74, polish: 6, portuguese: 3, hispanic: 2, french: 2, italian: 2, german: 1, indian: 5, chinese: 2, east_slavic: 2, west_african: 2 },
  },
  Germany: {
    language: 'German',
    cultures: { german: 70, polish: 5, east_slavic: 5, arabic: 4, italian: 3, anglo: 3, french: 2, hispanic: 2, indian: 4, chinese: 2, dutch: 1, nordic: 1 },
  },
  Switzerland: {
    language: 'German',
    cultures: { german: 55, french: 15, italian: 12, anglo: 5, portuguese: 4, hispanic: 2, indian: 3, east_slavic: 2, chinese: 2 },
  },
  Netherlands: {
    language: 'Dutch',
    cultures: { dutch: 70, german: 5, anglo: 4, polish: 3, arabic: 5, indian: 4, hispanic: 2, italian: 2, french: 2, chinese: 2, east_slavic: 1 },
  },
  France: { language: 'French', cultures: { french: 75, arabic: 9, portuguese: 3, hispanic: 2, italian: 2, west_african: 4, anglo: 2, chinese: 2, german: 1 } },
  Spain: {
    language: 'Spanish',
    cultures: { hispanic: 82, french: 2, italian: 3, portuguese: 2, anglo: 3, arabic: 3, east_slavic: 2, chinese: 1, german: 1, nordic: 1 },
  },
  Portugal: {
    language: 'Portuguese',
    cultures: { portuguese: 82, hispanic: 4, anglo: 3, french: 2, west_african: 3, east_slavic: 2, indian: 2, italian: 1, german: 1 },
  },
  Italy: { language: 'Italian', cultures: { italian: 85, hispanic: 2, french: 2, east_slavic: 2, arabic: 3, anglo: 2, german: 2, chinese: 1, indian: 1 } },
  Sweden: {
    language: 'Swedish',
    cultures: { nordic: 72, arabic: 6, german: 3, polish: 3, anglo: 3, east_slavic: 3, hispanic: 2, indian: 3, chinese: 2, french: 1, dutch: 1 },
  },
  Poland: { language: 'Polish', cultures: { polish: 85, east_slavic: 10, anglo: 2, german: 1, indian: 1, hispanic: 1 } },
  India: { language: 'English', cultures: { indian: 97, anglo: 1, chinese: 0.5, arabic: 0.5 } },
  Singapore: { language: 'English', cultures: { chinese: 58, indian: 16, anglo: 10, korean: 2, japanese: 2, german: 1, french: 1, hispanic: 1, arabic: 1 } },
  Australia: {
    language: 'English',
    cultures: {
      anglo: 60,
      chinese: 12,
      indian: 10,
      italian: 4,
      hispanic: 2,
      arabic: 3,
      korean: 2,
      japanese: 1,
      german: 2,
      east_slavic: 1,
      west_african: 1,
      portuguese: 1,
      french: 1,
    },
  },
  Japan: { language: 'Japanese', cultures: { japanese: 90, korean: 3, chinese: 4, anglo: 3 } },
  'South Korea': { language: 'Korean', cultures: { korean: 92, chinese: 3, anglo: 3, japanese: 2 } },
  Mexico: { language: 'Spanish', cultures: { hispanic: 93, anglo: 3, german: 1, french: 1, italian: 1, arabic: 1 } },
  Brazil: { language: 'Portuguese', cultures: { portuguese: 85, italian: 5, german: 3, hispanic: 3, japanese: 2, arabic: 1, anglo: 1 } },
  Argentina: { language: 'Spanish', cultures: { hispanic: 80, italian: 12, german: 2, anglo: 2, east_slavic: 1, arabic: 2, portuguese: 1 } },
  Colombia: { language: 'Spanish', cultures: { hispanic: 94, anglo: 2, arabic: 2, italian: 1, german: 1 } },
  'United Arab Emirates': {
    language: 'Arabic',
    cultures: {
      arabic: 35,
      indian: 35,
      anglo: 10,
      chinese: 3,
      east_slavic: 3,
      west_african: 2,
      hispanic: 1,
      french: 2,
      german: 2,
      italian: 1,
      korean: 1,
      japanese: 1,
      portuguese: 1,
      polish: 1,
      nordic: 1,
      dutch: 1,
    },
  },
  Nigeria: { language: 'English', cultures: { west_african: 95, anglo: 2, arabic: 2, indian: 1 } },
};
const METRO_PROFILE_OVERRIDES: Record<string, CountryProfile> = {
  montreal: {
    language: 'French',
    cultures: { french: 55, anglo: 20, arabic: 6, hispanic: 3, chinese: 5, indian: 5, italian: 3, portuguese: 2, west_african: 1 },
  },
};

/** Relative share of the corpus per metro; unlisted metros get 1.5. */
const METRO_WEIGHTS: Record<string, number> = {
  'new-york-city': 10,
  'san-francisco-bay-area': 9,
  london: 7,
  'los-angeles': 6,
  bangalore: 6,
  seattle: 5,
  chicago: 5,
  boston: 4,
  'dallas-fort-worth': 4,
  'washington-dc': 4,
  'san-jose': 4,
  toronto: 4,
  austin: 3,
  houston: 3,
  atlanta: 3,
  denver: 3,
  berlin: 3,
  paris: 3,
  singapore: 3,
  sydney: 3,
  hyderabad: 3,
  mumbai: 3,
  'delhi-ncr': 3,
  'sao-paulo': 3,
  'mexico-city': 3,
  tokyo: 3,
  amsterdam: 2,
  pune: 2,
  seoul: 2,
  dublin: 2,
  munich: 2,
  philadelphia: 2.5,
  miami: 2.5,
  phoenix: 2.5,
  minneapolis: 2,
  'raleigh-durham': 2,
  'san-diego': 2,
  vancouver: 2,
  madrid: 2,
  melbourne: 2,
  dubai: 2,
  stockholm: 1.5,
  warsaw: 1.5,
  barcelona: 1.5,
  zurich: 1.5,
  lagos: 1.5,
};

const CULTURE_INDEX = new Map(NAME_CULTURES.map((c, i) => [c.id, i]));

interface MetroInfo {
  cultureCum: Float64Array;
  dominantCulture: number;
  language: string;
  englishSpeaking: boolean;
  eduCountry: string;
  location: string;
}

const METRO_INFO: MetroInfo[] = METROS.map((m) => {
  const profile = METRO_PROFILE_OVERRIDES[m.id] ?? COUNTRY_PROFILES[m.country];
  if (!profile) throw new Error(`corpus generator: no country profile for ${m.country}`);
  const weights = NAME_CULTURES.map((c) => profile.cultures[c.id] ?? 0);
  let dominant = 0;
  weights.forEach((w, i) => {
    if (w > weights[dominant]) dominant = i;
  });
  for (const id of Object.keys(profile.cultures)) {
    if (!CULTURE_INDEX.has(id)) throw new Error(`corpus generator: unknown culture ${id}`);
  }
  // "Berlin, Berlin, Germany" reads better as "Berlin, Germany".
  const parts = [m.city];
  if (m.region !== m.city) parts.push(m.region);
  if (m.country !== m.region) parts.push(m.country);
  return {
    cultureCum: cumulative(weights),
    dominantCulture: dominant,
    language: profile.language,
    englishSpeaking: profile.language === 'English',
    eduCountry: UNIVERSITIES[m.country] ? m.country : 'United States',
    location: parts.join(', '),
  };
});
const METRO_CUM = cumulative(METROS.map((m) => METRO_WEIGHTS[m.id] ?? 1.5));

interface CultureInfo {
  maleSlugs: string[];
  femaleSlugs: string[];
  lastSlugs: string[];
  lastFemaleSlugs: string[];
}
const CULTURE_INFO: CultureInfo[] = NAME_CULTURES.map((c) => ({
  maleSlugs: c.male.map(slugify),
  femaleSlugs: c.female.map(slugify),
  lastSlugs: c.last.map(slugify),
  lastFemaleSlugs: (c.lastFemale ?? c.last).map(slugify),
}));

const SECOND_LANGUAGES = ['Spanish', 'French', 'German', 'Mandarin', 'Japanese', 'Italian', 'Portuguese', 'Korean'];
const FOREIGN_LEVELS = ['elementary', 'conversational', 'professional'];
const ENGLISH_LEVELS = ['fluent', 'professional', 'professional', 'full professional'];

// ---------------------------------------------------------------------------------------------
// Sentence parts
// ---------------------------------------------------------------------------------------------

const VERBS = ['Owned', 'Worked on', 'Improved', 'Supported', 'Led work on', 'Drove'];
const GAINS = ['faster turnaround', 'lower costs', 'fewer incidents', 'higher customer satisfaction', 'less manual work', 'faster delivery'];
const VALUES = [
  'clear communication',
  'mentoring others',
  'work that matters to customers',
  'measurable outcomes',
  'continuous learning',
  'doing things properly',
];

function yearsText(years: number): string {
  return years === 1 ? '1 year' : `${years} years`;
}

// ---------------------------------------------------------------------------------------------
// Generator
// ---------------------------------------------------------------------------------------------

export function createPersonGenerator(seed: number): PersonGenerator {
  const seed32 = Math.floor(seed) >>> 0;
  const rng = new Rng();
  // Scratch buffers, reused across calls (person() is synchronous).
  const order = new Int32Array(Math.max(MAX_SKILLS, 16));
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

  // Own industries mostly; otherwise an adjacent family's, then any family's, rarely anything.
  function pickCompany(fam: FamilyInfo): number {
    if (rng.float() < fam.text.affinity) return fam.pool[rng.int(fam.pool.length)];
    const r = rng.float();
    if (r < 0.6 && fam.adjacent.length > 0) {
      const pool = FAMILIES[fam.adjacent[rng.int(fam.adjacent.length)]].pool;
      return pool[rng.int(pool.length)];
    }
    if (r < 0.95) return COMMON_POOL[rng.int(COMMON_POOL.length)];
    return rng.int(COMPANIES.length);
  }

  function person(index: number): PersonProfile {
    if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`person index must be a non-negative integer, got ${index}`);
    rng.reseed(seed32, index);
    const id = 'p' + String(index).padStart(7, '0');

    // Place and name
    const mi = rng.weighted(METRO_CUM);
    const metro = METROS[mi];
    const place = METRO_INFO[mi];
    const ci = rng.weighted(place.cultureCum);
    const culture = NAME_CULTURES[ci];
    const cinfo = CULTURE_INFO[ci];
    const female = rng.float() < 0.5;
    const fni = rng.int(female ? culture.female.length : culture.male.length);
    const firstName = female ? culture.female[fni] : culture.male[fni];
    const firstSlug = female ? cinfo.femaleSlugs[fni] : cinfo.maleSlugs[fni];
    const lni = rng.int(culture.last.length);
    const lastName = female && culture.lastFemale ? culture.lastFemale[lni] : culture.last[lni];
    const lastSlug = female ? cinfo.lastFemaleSlugs[lni] : cinfo.lastSlugs[lni];

    // Role
    const fi = rng.weighted(FAMILY_CUM);
    const family = ROLE_FAMILIES[fi];
    const fam = FAMILIES[fi];
    const text = fam.text;
    const si = rng.weighted(SENIORITY_CUM);
    const seniority = SENIORITIES[si];
    const [ylo, yhi] = SENIORITY_YEARS[seniority];
    const years = ylo + rng.int(yhi - ylo + 1);

    // Skills: 5–15, sometimes one or two from an adjacent family.
    const total = 5 + rng.int(11);
    const extra = fam.adjacent.length > 0 && total >= 7 && rng.float() < 0.25 ? 1 + rng.int(2) : 0;
    const own = total - extra;
    sample(fam.skillCount, own);
    const skills: string[] = [];
    for (let i = 0; i < own; i++) skills.push(family.skills[order[i]]);
    for (let e = 0; e < extra; e++) {
      const adj = ROLE_FAMILIES[fam.adjacent[rng.int(fam.adjacent.length)]];
      for (let tries = 0; tries < 4; tries++) {
        const s = adj.skills[rng.int(adj.skills.length)];
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

    const baseTitle = family.titles[rng.int(family.titles.length)];
    const title = buildTitle(seniority, family.id, baseTitle, rng.int(12));
    const companyIdx = pickCompany(fam);
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
        const base = rng.float() < 0.7 ? baseTitle : family.titles[rng.int(family.titles.length)];
        etitle = buildTitle(SENIORITIES[esi], family.id, base, rng.int(12));
        // Internal promotions keep the company; otherwise move on.
        eci = esi < newerSeniority && rng.float() < 0.25 ? newerCompany : pickCompany(fam);
        if (eci === newerCompany && esi === newerSeniority) eci = pickCompany(fam);
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
        description: describeWork(esi, text, skills),
      });
      newerCompany = eci;
      newerSeniority = esi;
    }
    const previousCompany = experience.length > 1 && experience[1].company !== company.name ? experience[1].company : undefined;

    // Education (newest first)
    const education: EducationEntry[] = [];
    const careerStartYear = Math.floor(careerStart / 12);
    const r = rng.float();
    const degrees = seniority === 'intern' ? 1 : r < 0.07 && family.id !== 'healthcare_nursing' ? 0 : r < 1 - text.twoDegrees ? 1 : 2;
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
    if (family.id === 'healthcare_nursing' && certCount === 0) certCount = 1 + rng.int(2);
    if (certCount > text.certs.length) certCount = text.certs.length;
    sample(text.certs.length, certCount);
    const certifications: string[] = [];
    for (let i = 0; i < certCount; i++) certifications.push(text.certs[order[i]]);

    // Languages: native first
    const languages = pickLanguages(culture.languages[rng.int(culture.languages.length)], ci, place);

    // Projects: 0–3
    const pr = rng.float();
    const projectCount = Math.min(pr < 0.4 ? 0 : pr < 0.7 ? 1 : pr < 0.9 ? 2 : 3, text.projects.length);
    sample(text.projects.length, projectCount);
    const projects: ProjectEntry[] = [];
    for (let i = 0; i < projectCount; i++) {
      const name = text.projects[order[i]];
      projects.push({ name, description: describeProject(name, skills) });
    }

    // Texts
    const summary = `${title} at ${company.name} | ${years === 0 ? 'early career' : `${yearsText(years)} of experience`}`;
    const about = writeAbout(title, years, company.name, previousCompany, metro.city, text, skills);

    // Connections: log-normal, most under 1,000; senior people and sellers have more.
    const u1 = rng.float() || 1e-9;
    const u2 = rng.float();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    const mu = 5.6 + si * 0.12 + (family.id === 'sales' || family.id === 'recruiting' ? 0.5 : 0);
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
      family: family.id,
      company: company.name,
      industry: company.industry,
      metro: metro.id,
      location: place.location,
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

  function describeWork(esi: number, text: FamilyText, skills: string[]): string {
    const object = rng.pick(text.objects);
    if (esi >= 5 && rng.float() < 0.7) {
      const size = 3 + rng.int(esi >= 6 ? 40 : 10);
      return rng.float() < 0.5 ? `Led a team of ${size} responsible for ${object}.` : `Managed ${object} with a team of ${size}.`;
    }
    const s1 = skills[rng.int(skills.length)];
    switch (rng.int(3)) {
      case 0: {
        let s2 = skills[rng.int(skills.length)];
        if (s2 === s1) s2 = skills[0] === s1 ? skills[1] : skills[0];
        return `${rng.pick(VERBS)} ${object}, with a focus on ${s1} and ${s2}.`;
      }
      case 1:
        return `Responsible for ${object}; worked mainly with ${s1}.`;
      default:
        return `${rng.pick(VERBS)} ${object} using ${s1}.`;
    }
  }

  function describeProject(name: string, skills: string[]): string {
    const s1 = skills[rng.int(skills.length)];
    switch (rng.int(3)) {
      case 0: {
        let s2 = skills[rng.int(skills.length)];
        if (s2 === s1) s2 = skills[0] === s1 ? skills[1] : skills[0];
        return `Led the ${name} end to end using ${s1} and ${s2}.`;
      }
      case 1:
        return `Drove the ${name} from kickoff to launch, delivering ${10 + rng.int(50)}% ${rng.pick(GAINS)}.`;
      default:
        return `Core contributor to the ${name}, focused on ${s1}.`;
    }
  }

  function writeAbout(title: string, years: number, company: string, previous: string | undefined, city: string, text: FamilyText, skills: string[]): string {
    let out: string;
    if (years === 0) out = `Early-career ${title} passionate about ${text.phrase}.`;
    else if (rng.float() < 0.5) out = `${title} with ${yearsText(years)} of experience ${text.phrase}.`;
    else out = `I have spent ${yearsText(years)} ${text.phrase}, most recently as ${title} at ${company}.`;
    switch (rng.int(3)) {
      case 0:
        out += ` My toolkit includes ${skills[0]}, ${skills[1]} and ${skills[2]}.`;
        break;
      case 1:
        out += ` Day to day I work with ${skills[0]}, ${skills[1]} and ${skills[2]}.`;
        break;
      default:
        out += ` Strong background in ${skills[0]} and ${skills[1]}.`;
    }
    if (rng.float() < 0.65) {
      out += previous && rng.float() < 0.5 ? ` Previously at ${previous}.` : ` I care about ${rng.pick(VALUES)}.`;
    }
    if (rng.float() < 0.35) {
      out += rng.float() < 0.5 ? ` Open to roles in ${city} or remote.` : ' Open to new opportunities.';
    }
    return out;
  }

  function pickLanguages(native: string, ci: number, place: MetroInfo): string[] {
    const out: string[] = [];
    if (native === 'English') {
      out.push('English (native)');
      if (!place.englishSpeaking && rng.float() < 0.7) out.push(`${place.language} (${rng.pick(FOREIGN_LEVELS)})`);
      else if (rng.float() < 0.3) out.push(`${rng.pick(SECOND_LANGUAGES)} (${rng.pick(FOREIGN_LEVELS)})`);
      return out;
    }
    if (place.englishSpeaking && ci !== place.dominantCulture && rng.float() < 0.35) {
      // Raised in an English-speaking country, heritage language at home.
      out.push('English (native)', `${native} (${rng.float() < 0.5 ? 'native' : 'professional'})`);
      return out;
    }
    out.push(`${native} (native)`);
    if (place.englishSpeaking || rng.float() < 0.85) out.push(`English (${rng.pick(ENGLISH_LEVELS)})`);
    if (place.language !== native && place.language !== 'English' && rng.float() < 0.7) {
      out.push(`${place.language} (${rng.pick(FOREIGN_LEVELS)})`);
    }
    return out;
  }

  return { person };
}
