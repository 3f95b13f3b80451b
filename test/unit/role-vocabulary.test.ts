/**
 * Integrity of the role vocabulary the brief reader reads: the curated aliases, department words and
 * seniority words (src/reference/data/role-vocabulary.json) and the O*NET-derived title lists
 * (src/reference/data/onet-titles.json). Where each list comes from: docs/reference-sources.md.
 */
import onetData from '../../src/reference/data/onet-titles.json';
import vocabularyData from '../../src/reference/data/role-vocabulary.json';
import { ROLE_FAMILIES, SENIORITIES, buildTitle, type Seniority } from '../../src/reference/taxonomy';

interface Alias {
  phrase: string;
  title?: string;
  seniority?: string;
  exact?: boolean;
}

interface FamilyVocabulary {
  umbrella?: string[];
  areas: string[];
  aliases: Alias[];
  skill_titles?: Record<string, string>;
}

interface Vocabulary {
  families: Record<string, FamilyVocabulary>;
  seniority: Record<string, string[]>;
}

interface OnetTitles {
  source: { name: string; files: string[]; licence: string; attribution: string };
  occupations: Record<string, { title: string; family: string }>;
  families: Record<string, string[]>;
}

const VOCABULARY = vocabularyData as unknown as Vocabulary;
const ONET = onetData as unknown as OnetTitles;
const FAMILY_IDS = ROLE_FAMILIES.map((f) => f.id);
const familyById = new Map(ROLE_FAMILIES.map((f) => [f.id, f]));
const key = (s: string): string => s.toLowerCase();

/**
 * Phrases deliberately listed under two families (lower case → families). Empty: an ambiguous phrase is
 * listed once, under the family a recruiter most often means, and the ambiguity is written down in
 * docs/reference-sources.md. Add an entry here only together with that note.
 */
const ALLOWED_IN_TWO_FAMILIES: Record<string, string[]> = {};

/** A short all-capitals abbreviation ("PM", "SDRs", "PdM"): matched case-sensitively, so it must be marked exact. */
function isAbbreviation(phrase: string): boolean {
  if (phrase.includes(' ') || phrase.length > 6 || !/^[A-Z][A-Za-z0-9&/]*$/.test(phrase)) return false;
  const stem = /[A-Z]s$/.test(phrase) ? phrase.slice(0, -1) : phrase;
  const upper = [...stem].filter((c) => c >= 'A' && c <= 'Z').length;
  const lower = [...stem].filter((c) => c >= 'a' && c <= 'z').length;
  return upper >= 2 && lower <= 1;
}

/** Every family that lists a phrase (curated alias or department word), by lower-cased phrase. */
function phraseOwners(): Map<string, Set<string>> {
  const owners = new Map<string, Set<string>>();
  for (const [family, v] of Object.entries(VOCABULARY.families)) {
    for (const phrase of [...v.aliases.map((a) => a.phrase), ...v.areas]) {
      owners.set(key(phrase), (owners.get(key(phrase)) ?? new Set()).add(family));
    }
  }
  return owners;
}

/** The curated entries for a phrase a recruiter typed: exact entries match case-sensitively, the rest case-insensitively. */
function lookup(typed: string): (Alias & { family: string })[] {
  return Object.entries(VOCABULARY.families).flatMap(([family, v]) =>
    v.aliases.filter((a) => (a.exact ? a.phrase === typed : key(a.phrase) === key(typed))).map((a) => ({ ...a, family })),
  );
}

/** Manager-and-up titles the corpus gives people of a family ("Director of Engineering", "CTO"), lower case. */
function levelTitles(familyId: string): Set<string> {
  const family = familyById.get(familyId)!;
  const out = new Set<string>();
  for (const seniority of ['manager', 'director', 'vp', 'cxo'] as const) {
    for (let variant = 0; variant < 6; variant++) out.add(key(buildTitle(seniority, familyId, family.titles[0], variant)));
  }
  return out;
}

describe('role vocabulary (role-vocabulary.json)', () => {
  it('has an entry for exactly the reference role families', () => {
    expect(Object.keys(VOCABULARY.families).sort()).toEqual([...FAMILY_IDS].sort());
  });

  it('is broad: about 40 aliases per family on average, none thin, every family with department words', () => {
    const counts = Object.values(VOCABULARY.families).map((v) => v.aliases.length);
    expect(counts.reduce((a, b) => a + b, 0) / counts.length).toBeGreaterThanOrEqual(40);
    for (const [family, v] of Object.entries(VOCABULARY.families)) {
      expect({ family, enough: v.aliases.length >= 30 }).toEqual({ family, enough: true });
      expect({ family, areas: v.areas.length > 0 }).toEqual({ family, areas: true });
    }
  });

  it('writes every entry in the documented shape: non-empty trimmed phrases of at most 60 characters', () => {
    for (const [family, v] of Object.entries(VOCABULARY.families)) {
      expect(Object.keys(v).every((k) => ['umbrella', 'areas', 'aliases', 'skill_titles'].includes(k))).toBe(true);
      for (const phrase of [...v.areas, ...v.aliases.map((a) => a.phrase)]) {
        const ok = typeof phrase === 'string' && phrase.trim() === phrase && phrase !== '' && phrase.length <= 60 && !/\s{2}/.test(phrase);
        expect({ family, phrase, ok }).toEqual({ family, phrase, ok: true });
      }
      for (const a of v.aliases) {
        expect({ family, phrase: a.phrase, keys: Object.keys(a).filter((k) => !['phrase', 'title', 'seniority', 'exact'].includes(k)) }).toEqual({
          family,
          phrase: a.phrase,
          keys: [],
        });
        // `exact` is only ever written as true, and only on a phrase with capitals to be exact about.
        if ('exact' in a)
          expect({ family, phrase: a.phrase, exact: a.exact === true && /[A-Z]/.test(a.phrase) }).toEqual({ family, phrase: a.phrase, exact: true });
      }
    }
  });

  it('points every alias at a base title of its own family and a known seniority level', () => {
    for (const [family, v] of Object.entries(VOCABULARY.families)) {
      const titles = familyById.get(family)!.titles;
      for (const a of v.aliases) {
        if (a.title !== undefined)
          expect({ family, phrase: a.phrase, title: a.title, known: titles.includes(a.title) }).toEqual({
            family,
            phrase: a.phrase,
            title: a.title,
            known: true,
          });
        if (a.seniority !== undefined) {
          expect({ family, phrase: a.phrase, seniority: a.seniority, known: (SENIORITIES as readonly string[]).includes(a.seniority) }).toEqual({
            family,
            phrase: a.phrase,
            seniority: a.seniority,
            known: true,
          });
        }
      }
    }
  });

  it('marks every short all-capitals abbreviation exact', () => {
    const unmarked = Object.entries(VOCABULARY.families).flatMap(([family, v]) =>
      v.aliases.filter((a) => isAbbreviation(a.phrase) && a.exact !== true).map((a) => `${family}: ${a.phrase}`),
    );
    expect(unmarked).toEqual([]);
    // The rule itself: the forms the issue names are abbreviations, ordinary words and camel-case names are not.
    expect(['PM', 'AE', 'RN', 'HRBP', 'SDRs', 'PdM', 'FP&A'].every(isAbbreviation)).toBe(true);
    expect(['RevOps', 'iOS developer', 'nurse', 'Go', 'VP Eng'].some(isAbbreviation)).toBe(false);
  });

  it('lists no phrase twice in a family, and none under two families unless explicitly allowed', () => {
    for (const [family, v] of Object.entries(VOCABULARY.families)) {
      const phrases = v.aliases.map((a) => key(a.phrase));
      expect({ family, duplicates: phrases.filter((p, i) => phrases.indexOf(p) !== i) }).toEqual({ family, duplicates: [] });
      const areas = v.areas.map(key);
      expect({ family, duplicateAreas: areas.filter((p, i) => areas.indexOf(p) !== i) }).toEqual({ family, duplicateAreas: [] });
    }
    const shared = [...phraseOwners()]
      .filter(([, families]) => families.size > 1)
      .map(([phrase, families]) => ({ phrase, families: [...families].sort() }))
      .filter(({ phrase, families }) => JSON.stringify(ALLOWED_IN_TWO_FAMILIES[phrase]?.slice().sort()) !== JSON.stringify(families));
    expect(shared).toEqual([]);
  });

  it('does not contradict the corpus titles: no alias is another family’s base or manager-and-up title', () => {
    const baseOwner = new Map(ROLE_FAMILIES.flatMap((f) => f.titles.map((t) => [key(t), f.id] as const)));
    const levels = new Map(FAMILY_IDS.map((id) => [id, levelTitles(id)]));
    const problems: string[] = [];
    for (const [family, v] of Object.entries(VOCABULARY.families)) {
      for (const a of v.aliases) {
        const p = key(a.phrase);
        // A base title is read as itself already; repeating it (in any family) only invites disagreement.
        if (baseOwner.has(p)) problems.push(`${family}: "${a.phrase}" is a base title of ${baseOwner.get(p)}`);
        const holders = FAMILY_IDS.filter((id) => levels.get(id)!.has(p));
        if (holders.length > 0 && !holders.includes(family)) problems.push(`${family}: "${a.phrase}" is a corpus title of ${holders.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('points every skill hint at a skill and a base title of the same family', () => {
    for (const [family, v] of Object.entries(VOCABULARY.families)) {
      const f = familyById.get(family)!;
      for (const [skill, title] of Object.entries(v.skill_titles ?? {})) {
        expect({ family, skill, title, ok: f.skills.includes(skill) && f.titles.includes(title) }).toEqual({ family, skill, title, ok: true });
      }
    }
  });

  it('names as umbrella titles only base titles of the same family', () => {
    for (const [family, v] of Object.entries(VOCABULARY.families)) {
      for (const title of v.umbrella ?? []) expect({ family, title, ok: familyById.get(family)!.titles.includes(title) }).toEqual({ family, title, ok: true });
    }
  });

  it('reads the abbreviations and titles the issue names into the family and base title the corpus uses', () => {
    const cases: [typed: string, family: string, title: string | undefined, seniority?: Seniority][] = [
      ['PM', 'product_management', 'Product Manager'],
      ['PMM', 'marketing', 'Product Marketing Manager'],
      ['AE', 'sales', 'Account Executive'],
      ['SDR', 'sales', 'Sales Development Representative'],
      ['BDR', 'sales', 'Business Development Representative'],
      ['CSM', 'customer_success', 'Customer Success Manager'],
      ['HRBP', 'hr_people', 'HR Business Partner'],
      ['TPM', 'project_management', 'Technical Program Manager'],
      ['RN', 'healthcare_nursing', 'Registered Nurse'],
      ['CPA', 'accounting', 'Accountant'],
      ['SRE', 'devops_sre', 'Site Reliability Engineer'],
      ['VP Eng', 'software_engineering', undefined, 'vp'],
      ['server-side developer', 'software_engineering', 'Backend Engineer'],
      ['iOS developer', 'software_engineering', 'Mobile Engineer'],
      ['ML engineer', 'data_science', 'Machine Learning Engineer'],
      ['people ops', 'hr_people', 'People Operations Specialist'],
      ['RevOps', 'operations', 'Revenue Operations Analyst'],
      ['hardware design engineer', 'electrical_engineering', 'Hardware Engineer'],
      ['CFO', 'finance', undefined, 'cxo'],
      ['head of talent', 'recruiting', undefined, 'director'],
      ['in-house counsel', 'legal', 'Corporate Counsel'],
      ['nurses', 'healthcare_nursing', 'Registered Nurse'],
    ];
    for (const [typed, family, title, seniority] of cases) {
      const found = lookup(typed).map((a) => ({ family: a.family, title: a.title, seniority: a.seniority }));
      expect({ typed, found }).toEqual({ typed, found: [{ family, title, seniority }] });
    }
    // Exact entries do not match other capitalisations: "pm" (as in "5 pm") is not a product manager.
    expect(lookup('pm')).toEqual([]);
    expect(lookup('rn')).toEqual([]);
  });

  it('knows the department words of "VP Eng", "Head of People", "Head of Talent"', () => {
    expect(VOCABULARY.families.software_engineering.areas).toEqual(expect.arrayContaining(['Engineering', 'Eng']));
    expect(VOCABULARY.families.hr_people.areas).toContain('People');
    expect(VOCABULARY.families.recruiting.areas).toContain('Talent');
  });
});

describe('brief seniority words (role-vocabulary.json)', () => {
  it('has lower-case, unique words for exactly the nine levels', () => {
    expect(Object.keys(VOCABULARY.seniority)).toEqual([...SENIORITIES]);
    const all = Object.values(VOCABULARY.seniority).flat();
    for (const w of all) expect({ w, ok: w !== '' && w === w.toLowerCase() && w.trim() === w }).toEqual({ w, ok: true });
    expect(all.filter((w, i) => all.indexOf(w) !== i)).toEqual([]);
    for (const level of SENIORITIES) expect({ level, some: VOCABULARY.seniority[level].length > 0 }).toEqual({ level, some: true });
  });

  it('places the words briefs use at the right level', () => {
    const expected: Record<string, Seniority> = {
      intern: 'intern',
      internship: 'intern',
      'early-career': 'junior',
      'entry-level': 'junior',
      junior: 'junior',
      'new grad': 'junior',
      'mid-level': 'mid',
      senior: 'senior',
      staff: 'lead',
      principal: 'lead',
      'tech lead': 'lead',
      manager: 'manager',
      supervisor: 'manager',
      director: 'director',
      'head of': 'director',
      vp: 'vp',
      'vice president': 'vp',
      chief: 'cxo',
      founder: 'cxo',
    };
    for (const [word, level] of Object.entries(expected)) {
      const at = SENIORITIES.filter((s) => VOCABULARY.seniority[s].includes(word));
      expect({ word, at }).toEqual({ word, at: [level] });
    }
  });

  it('keeps "president" out: as a whole word it would also match inside "vice president"', () => {
    expect(Object.values(VOCABULARY.seniority).flat()).not.toContain('president');
  });
});

describe('O*NET-derived titles (onet-titles.json)', () => {
  it('names its source, licence and the attribution O*NET asks for', () => {
    expect(ONET.source.name).toMatch(/^O\*NET \d+\.\d+ Database/);
    expect(ONET.source.files).toEqual(expect.arrayContaining(['Occupation Data', 'Alternate Titles']));
    expect(ONET.source.licence).toContain('CC BY 4.0');
    expect(ONET.source.attribution).toContain(
      'by the U.S. Department of Labor, Employment and Training Administration (USDOL/ETA). Used under the CC BY 4.0 license.',
    );
    expect(ONET.source.attribution).toContain('O*NET® is a trademark of USDOL/ETA.');
    expect(ONET.source.attribution).toContain('USDOL/ETA has not approved, endorsed, or tested these modifications.');
  });

  it('maps O*NET-SOC occupations explicitly to known families', () => {
    const codes = Object.keys(ONET.occupations);
    expect(codes.length).toBeGreaterThanOrEqual(40);
    for (const [code, o] of Object.entries(ONET.occupations)) {
      expect({ code, ok: /^\d{2}-\d{4}\.\d{2}$/.test(code) && o.title.trim() !== '' && FAMILY_IDS.includes(o.family) }).toEqual({ code, ok: true });
    }
    // Every family but the two O*NET has no occupation for (titles taken by keyword, see the doc) has one.
    const mapped = new Set(Object.values(ONET.occupations).map((o) => o.family));
    expect(FAMILY_IDS.filter((id) => !mapped.has(id)).sort()).toEqual(['product_management', 'recruiting']);
  });

  it('lists titles for known families only, each once in the whole file, none empty or over 60 characters', () => {
    expect(Object.keys(ONET.families).every((f) => FAMILY_IDS.includes(f))).toBe(true);
    const all = Object.values(ONET.families).flat();
    expect(all.length).toBeGreaterThanOrEqual(1000);
    expect(all.length).toBeLessThanOrEqual(5000);
    const lower = all.map(key);
    expect(lower.filter((t, i) => lower.indexOf(t) !== i)).toEqual([]);
    for (const t of all) expect({ t, ok: t.trim() === t && t !== '' && t.length <= 60 }).toEqual({ t, ok: true });
    for (const id of FAMILY_IDS) expect({ id, some: (ONET.families[id] ?? []).length > 0 }).toEqual({ id, some: true });
  });

  it('agrees with the curated vocabulary and the base titles: no O*NET title belongs to another family there', () => {
    const owners = phraseOwners();
    const baseOwner = new Map(ROLE_FAMILIES.flatMap((f) => f.titles.map((t) => [key(t), f.id] as const)));
    const problems: string[] = [];
    for (const [family, titles] of Object.entries(ONET.families)) {
      for (const t of titles) {
        const curated = [...(owners.get(key(t)) ?? [])].filter((f) => f !== family);
        if (curated.length > 0 && !ALLOWED_IN_TWO_FAMILIES[key(t)]) problems.push(`${family}: "${t}" is curated under ${curated.join(', ')}`);
        const base = baseOwner.get(key(t));
        if (base !== undefined && base !== family) problems.push(`${family}: "${t}" is a base title of ${base}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
