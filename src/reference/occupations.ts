/**
 * Occupations (DESIGN.md §4a): every O*NET-SOC 2019 occupation of the O*NET 29.3 database with its
 * role family (at most one, by the reviewed table), job zone, US employment (BLS OEWS May 2024),
 * skills and technology, and the full O*NET vocabulary of titles (alternate and reported titles).
 * Files under src/reference/data/occupations/, built by tools/reference/build-occupations.ts
 * (CC BY 4.0; docs/reference/occupations.md). Loaded on first use.
 */
import fs from 'node:fs';
import path from 'node:path';
import familyTitleData from './data/occupations/family-titles.json';

export interface Occupation {
  /** O*NET-SOC code, e.g. "29-1051.00". */
  code: string;
  title: string;
  description: string;
  /** The role family it sits in, or null (most occupations). */
  family: string | null;
  /** O*NET job zone 1–5 (preparation needed), when rated. */
  job_zone: number | null;
  /** US employment (OEWS), split among O*NET codes sharing a SOC code. */
  employment: number | null;
  /** O*NET Skills, most important first. */
  skills: string[];
  /** O*NET Technology Skills examples (hot technologies first). */
  technology: string[];
}

export interface OccupationTitle {
  title: string;
  code: string;
  source: 'reported' | 'alternate' | 'short';
}

/** O*NET-SOC code form. */
export const ONET_CODE = /^\d{2}-\d{4}\.\d{2}$/;

/**
 * The armed forces' occupations (SOC 55): not hired through recruiters, no OEWS employment, and no
 * one in the corpus; the reader does not read them and the workforce draw skips them.
 */
export const isMilitaryOccupation = (code: string) => code.startsWith('55-');

/** O*NET's residual occupations' titles ("Production Workers, All Other"): a catch-all, no occupation of its own kind. */
export const isResidualTitle = (title: string) => /,\s*All Other$/i.test(title);

/** The SOC "detailed occupation" a code belongs to ("29-1141.01" → "29-1141"): O*NET's specialities share it. */
export const socOf = (code: string) => code.slice(0, 7);

/** The SOC "broad occupation" a code belongs to ("29-1051.00" → "29-105"): pharmacists with their neighbours. */
export const broadOccupationOf = (code: string) => code.slice(0, 6);

/** Every O*NET code of the broad occupations of some codes (the wanted codes included). */
export function broadNeighbours(codes: readonly string[]): string[] {
  const broad = new Set(codes.map(broadOccupationOf));
  return occupations()
    .all.filter((o) => broad.has(broadOccupationOf(o.code)))
    .map((o) => o.code);
}

const DATA_DIR = path.join(__dirname, 'data', 'occupations');

const words = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9+#]+/)
    .filter(Boolean);

export interface OccupationIndex {
  all: readonly Occupation[];
  byCode(code: string): Occupation | undefined;
  titles(): readonly OccupationTitle[];
  /** Occupations whose title or one of whose titles holds every word of the text, best first (own title, then employment). */
  search(text: string, limit: number): Occupation[];
}

function build(): OccupationIndex {
  const data = JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'occupations.json'), 'utf8')) as { occupations: Occupation[] };
  const all = data.occupations.map((o) => ({
    code: o.code,
    title: o.title,
    description: o.description,
    family: o.family ?? null,
    job_zone: o.job_zone ?? null,
    employment: o.employment ?? null,
    skills: o.skills ?? [],
    technology: o.technology ?? [],
  }));
  const byCode = new Map(all.map((o) => [o.code, o]));
  let titles: OccupationTitle[] | undefined;
  const loadTitles = () => {
    if (!titles) {
      const [, ...lines] = fs.readFileSync(path.join(DATA_DIR, 'titles.tsv'), 'utf8').split('\n');
      titles = lines
        .filter((l) => l.trim() !== '')
        .map((l) => {
          const [title, code, source] = l.split('\t');
          return { title, code, source: source as OccupationTitle['source'] };
        });
    }
    return titles;
  };
  // Per occupation, the words of its own title and of all its titles (for search).
  let searchable: { o: Occupation; own: Set<string>; any: Set<string> }[] | undefined;
  const searchIndex = () => {
    if (!searchable) {
      const titleWords = new Map<string, Set<string>>();
      for (const t of loadTitles()) {
        const set = titleWords.get(t.code) ?? new Set<string>();
        for (const w of words(t.title)) set.add(w);
        titleWords.set(t.code, set);
      }
      searchable = all.map((o) => {
        const own = new Set(words(o.title));
        return { o, own, any: new Set([...own, ...(titleWords.get(o.code) ?? [])]) };
      });
    }
    return searchable;
  };
  return {
    all,
    byCode: (code) => byCode.get(code),
    titles: loadTitles,
    search(text, limit) {
      const wanted = words(text);
      if (wanted.length === 0) return [...all].sort((a, b) => (b.employment ?? 0) - (a.employment ?? 0)).slice(0, limit);
      // The last word may be unfinished (an autocomplete): it matches as a prefix.
      const has = (set: Set<string>) =>
        wanted.every(
          (w, i) => set.has(w) || (i === wanted.length - 1 && [...set].some((x) => x.startsWith(w))) || (w.endsWith('s') && set.has(w.slice(0, -1))),
        );
      return searchIndex()
        .filter((x) => has(x.any) || x.o.code.startsWith(text.trim()))
        .sort((a, b) => Number(has(b.own)) - Number(has(a.own)) || (b.o.employment ?? 0) - (a.o.employment ?? 0) || a.o.code.localeCompare(b.o.code))
        .slice(0, limit)
        .map((x) => x.o);
    },
  };
}

const FAMILY_TITLES: Record<string, Record<string, string>> = familyTitleData.titles;

/** "Chefs" → "Chef", "Attorneys" → "Attorney", "Boss" stays. */
export function singularWord(word: string): string {
  if (/[^s]ies$/i.test(word)) return `${word.slice(0, -3)}y`;
  if (/wives$/i.test(word)) return `${word.slice(0, -3)}fe`; // "midwives"
  if (/sses$/i.test(word)) return word.slice(0, -2); // "waitresses", "businesses"
  if (/(?:ss|us|is)$/i.test(word)) return word;
  if (/(?:ches|shes|xes)$/i.test(word)) return word.slice(0, -2);
  return /s$/i.test(word) ? word.slice(0, -1) : word;
}

/**
 * An occupation's own title as job titles: "Preschool Teachers, Except Special Education" →
 * "Preschool Teacher"; "Chefs and Head Cooks" → "Chef", "Head Cook"; none for "…, All Other" or
 * "Veterinary Technologists and Technicians".
 */
export function ownTitles(code: string): string[] {
  return titlesOfOccupationTitle(occupations().byCode(code)?.title ?? '');
}

/** The job titles an O*NET occupation title stands for (see ownTitles). */
export function titlesOfOccupationTitle(title: string): string[] {
  if (title === '' || /all other/i.test(title)) return [];
  // Only a qualifier may follow a comma ("…, Except Special Education"); a list ("Computer,
  // Automated Teller, and Office Machine Repairers") is no title.
  const qualified = /^(.*?),\s*(?:except|including|postsecondary|all)\b/i.exec(title);
  if (!qualified && title.includes(',')) return [];
  const main = (qualified ? qualified[1] : title).trim();
  const parts = main.split(/\s+and\s+/);
  if (parts.length === 1) return [main.replace(/\S+$/, singularWord)];
  // "Chefs and Head Cooks" are two titles; "Veterinary Technologists and Technicians" share
  // their first word, and "Technician" alone would name every technician: none then.
  return parts.length === 2 && !parts[0].includes(' ') && parts.every((p) => /s$/.test(p)) ? parts.map((p) => p.replace(/\S+$/, singularWord)) : [];
}

/**
 * The occupation of a role family's base title, by the reviewed table
 * (data/occupations/family-titles.json): "Backend Engineer" of software_engineering → 15-1252.00.
 */
export function familyTitleOccupation(family: string, baseTitle: string): string | undefined {
  return FAMILY_TITLES[family]?.[baseTitle];
}

let managers: Map<string, { primary: string; byTitle: Map<string, string> }> | undefined;
/**
 * The management occupation of a family's manager-and-up title: the family's own SOC 11 occupation
 * (by the reviewed family table) whose O*NET titles list the title ("Logistics Manager" →
 * 11-3071.00, "Procurement Manager" → 11-3061.00), else the family's largest one ("Head of Finance"
 * → Financial Managers). Undefined for a family the table gives none (software engineering's
 * managers are not O*NET's alone: Computer and Information Systems Managers are DevOps/SRE's).
 * The corpus gives the family's managers this occupation, and the reader reads it for them.
 */
export function familyManagerOccupation(family: string, title: string): string | undefined {
  if (!managers) {
    managers = new Map();
    const index = occupations();
    // A speciality of "Managers, All Other" (Regulatory Affairs Managers, legal's) is no family's management.
    const residual = (code: string) => isResidualTitle(index.byCode(`${socOf(code)}.00`)?.title ?? '');
    const own = index.all.filter((o) => o.family !== null && o.code.startsWith('11-') && !residual(o.code));
    const titlesOf = new Map<string, string[]>();
    for (const t of index.titles()) titlesOf.set(t.code, [...(titlesOf.get(t.code) ?? []), t.title.toLowerCase()]);
    for (const f of new Set(own.map((o) => o.family!))) {
      // Largest first: a title two of them list is the larger's ("Marketing Manager": Marketing Managers, not Advertising).
      const codes = own.filter((o) => o.family === f).sort((a, b) => (b.employment ?? 0) - (a.employment ?? 0));
      const byTitle = new Map<string, string>();
      for (const o of codes) for (const t of titlesOf.get(o.code) ?? []) if (!byTitle.has(t)) byTitle.set(t, o.code);
      managers.set(f, { primary: codes[0].code, byTitle });
    }
  }
  const m = managers.get(family);
  return m && (m.byTitle.get(title.toLowerCase()) ?? m.primary);
}

let loaded: OccupationIndex | undefined;
export function occupations(): OccupationIndex {
  loaded ??= build();
  return loaded;
}
