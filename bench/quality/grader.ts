import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../src/db/knex';

/**
 * The people table holds countries as ISO 3166-1 alpha-2 codes (DESIGN.md §4a); the labels name
 * them as metros.json does. (A fixed table, so the grader stays independent of src/.)
 */
const ISO2: Record<string, string> = {
  Argentina: 'AR',
  Australia: 'AU',
  Brazil: 'BR',
  Canada: 'CA',
  Colombia: 'CO',
  France: 'FR',
  Germany: 'DE',
  India: 'IN',
  Ireland: 'IE',
  Italy: 'IT',
  Japan: 'JP',
  Mexico: 'MX',
  Netherlands: 'NL',
  Nigeria: 'NG',
  Poland: 'PL',
  Portugal: 'PT',
  Singapore: 'SG',
  'South Korea': 'KR',
  Spain: 'ES',
  Sweden: 'SE',
  Switzerland: 'CH',
  'United Arab Emirates': 'AE',
  'United Kingdom': 'GB',
  'United States': 'US',
};

/**
 * The search-quality grader (`npm run bench -- quality`). It is independent of the service's
 * scorer on purpose: it never imports src/domain (scoring, reader, vocabulary) and grades a person
 * only from the people table's own columns against labels written by hand before any tuning
 * (bench/quality/README.md):
 *   grade 0–4 = family is the labelled family
 *             + title contains one of the labelled title words (whole words, any case)
 *             + in the labelled metro (or country); a free point when the brief names no place
 *             + seniority is one of the labelled levels; a free point when the brief names none.
 * nDCG@25 compares the service's first 25 people with the best 25 of the whole corpus.
 */

export interface BriefLabels {
  family: string;
  title_words: string[];
  metro: string | null;
  country: string | null;
  seniority: string[] | null;
}

export interface Brief {
  id: string;
  text: string;
  kind: string[];
  labels: BriefLabels;
}

export const CUTOFF = 25;

export function loadBriefs(split: 'tune' | 'holdout'): Brief[] {
  return JSON.parse(fs.readFileSync(path.join(__dirname, `briefs-${split}.json`), 'utf8')) as Brief[];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The grade of a people row as one SQL expression (columns of `people`), with its bindings. */
export function gradeSql(labels: BriefLabels): { sql: string; bindings: (string | string[])[] } {
  const words = labels.title_words.map((w) => escapeRegex(w.trim().toLowerCase()).replace(/\s+/g, '[\\s-]+')).filter(Boolean);
  const titleRe = words.length ? `\\m(?:${words.join('|')})\\M` : '(?!)';
  const place = labels.metro ? 'metro = ?' : labels.country ? 'country = ?' : 'true';
  const placeBindings = labels.metro ? [labels.metro] : labels.country ? [ISO2[labels.country] ?? labels.country] : [];
  const level = labels.seniority && labels.seniority.length ? 'seniority = any(?::text[])' : 'true';
  const levelBindings = labels.seniority && labels.seniority.length ? [labels.seniority] : [];
  return {
    sql: `((family = ?)::int + (title ~* ?)::int + (${place})::int + (${level})::int)`,
    bindings: [labels.family, titleRe, ...placeBindings, ...levelBindings],
  };
}

/** Gains: exponential (2^grade − 1, the usual nDCG) and, for reference, linear (the grade itself). */
const discount = (rank: number) => 1 / Math.log2(rank + 2);
export const dcg = (grades: number[], gain: (g: number) => number) => grades.slice(0, CUTOFF).reduce((s, g, i) => s + gain(g) * discount(i), 0);
export const expGain = (g: number) => 2 ** g - 1;
export const linGain = (g: number) => g;

/** Grades of given people, in the order given (people missing from the table grade 0). */
export async function gradesOf(db: Db, labels: BriefLabels, personIds: string[]): Promise<number[]> {
  if (personIds.length === 0) return [];
  const g = gradeSql(labels);
  const { rows } = await db.raw(`select id, ${g.sql} as grade from people where id = any(?::text[])`, [...g.bindings, personIds]);
  const byId = new Map((rows as { id: string; grade: number }[]).map((r) => [r.id, Number(r.grade)]));
  return personIds.map((id) => byId.get(id) ?? 0);
}

/** The best CUTOFF grades the whole corpus holds for these labels, best first. */
export async function idealGrades(db: Db, labels: BriefLabels): Promise<number[]> {
  const g = gradeSql(labels);
  const { rows } = await db.raw(`select ${g.sql} as grade, count(*)::int as n from people group by 1 order by 1 desc`, g.bindings);
  const out: number[] = [];
  for (const r of rows as { grade: number; n: number }[]) {
    for (let i = 0; i < r.n && out.length < CUTOFF; i++) out.push(Number(r.grade));
    if (out.length >= CUTOFF) break;
  }
  return out;
}

export function ndcg(grades: number[], ideal: number[], gain: (g: number) => number = expGain): number {
  const best = dcg(ideal, gain);
  return best === 0 ? 0 : dcg(grades, gain) / best;
}

/**
 * The keyword baseline: plain Postgres full-text search over title and skills (the people
 * table's `search_vector`), every word of the brief OR-ed, ranked by ts_rank_cd: what a
 * developer gets without understanding the brief.
 */
export async function keywordBaseline(db: Db, text: string): Promise<string[]> {
  const { rows } = await db.raw(
    `with q as (select to_tsquery('english', coalesce(string_agg(quote_literal(lexeme), ' | '), '')) as q from unnest(to_tsvector('english', ?)))
     select p.id from people p, q where p.search_vector @@ q.q order by ts_rank_cd(p.search_vector, q.q) desc, p.id limit ?`,
    [text, CUTOFF],
  );
  return (rows as { id: string }[]).map((r) => r.id);
}
