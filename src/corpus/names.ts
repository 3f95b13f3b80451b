/**
 * Name, language and university tables for the corpus generator (the tables are in ./data).
 */
import nameCultureData from './data/name-cultures.json';
import universityData from './data/universities.json';

export interface NameCulture {
  id: string;
  male: string[];
  female: string[];
  last: string[];
  /** Feminine surname forms, index-aligned with `last` (Slavic languages). */
  lastFemale?: string[];
  /** Native languages; one is picked per person. */
  languages: string[];
  /** Country whose universities people of this culture often attended (see UNIVERSITIES). */
  home: string[];
}

export const NAME_CULTURES: NameCulture[] = nameCultureData;

/** ASCII slug of a name: "Müller" → "muller", "de Jong" → "de-jong", "O'Brien" → "obrien". */
export function slugify(s: string): string {
  return s
    .replace(/ß/g, 'ss')
    .replace(/[Łł]/g, 'l')
    .replace(/[Øø]/g, 'o')
    .replace(/[Ææ]/g, 'ae')
    .replace(/[Đđ]/g, 'd')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/'/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Universities by country (keys used by metros' countries and cultures' `home`). */
export const UNIVERSITIES: Record<string, string[]> = universityData;
