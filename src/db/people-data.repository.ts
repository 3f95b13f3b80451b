import { createHash } from 'node:crypto';
import type { PersonProfile } from '../domain/profile';
import type { CandidateSummary } from '../providers/profile-source';
import type { Db } from './knex';

/** What `POST /data/people/search` asks of the built-in people database. */
export interface PeopleFilter {
  /** websearch_to_tsquery text over title and skills. */
  text: string;
  /** A phrase that must occur in the title/skills vector (phraseto_tsquery), or null. */
  titlePhrase: string | null;
  /** Skills every match has (canonical spelling; the GIN index on skills). */
  skills: string[];
  metros: string[];
  countries: string[];
  /** Case-insensitive substring of the location when the place is no known metro or country. */
  locationLike: string | null;
  /** Lower-case company name. */
  company: string | null;
}

/** `total` counts matches up to this many (the depth PDL pages to); a count that reaches it is a lower bound (`totalExact: false`). */
export const PEOPLE_TOTAL_CAP = 10_000;

/** The key a filter's total is kept under in people_search_totals. */
export const peopleFilterKey = (f: PeopleFilter) => createHash('sha256').update(JSON.stringify(f)).digest('base64url');

/** The revision below which this process last dropped kept totals, per database. */
const prunedBelow = new WeakMap<Db, string>();

/** `column = value` for one value (so a composite btree can be walked in order), `= any(…)` for several. */
const oneOf = (db: Db, values: string[]) => (values.length === 1 ? values[0] : db.raw('any(?::text[])', [values]));

/**
 * The people database as the data endpoints read it: matches in a fixed order an index can walk
 * (freshest profile first: updated_at desc, then id), so a common term stops after limit+offset
 * matches (people_updated_idx, or its (metro|country|lower(company), updated_at, id) siblings)
 * and a rare one sorts its few GIN-bitmap matches; `total` is counted up to PEOPLE_TOTAL_CAP and
 * only when the page alone does not tell it. One primary-key read per profile.
 */
export function peopleDataRepository(db: Db) {
  const matching = (f: PeopleFilter) => {
    const tsq = f.titlePhrase
      ? db.raw(`(websearch_to_tsquery('english', ?) && phraseto_tsquery('english', ?))`, [f.text, f.titlePhrase])
      : db.raw(`websearch_to_tsquery('english', ?)`, [f.text]);
    const q = db('people').whereRaw('search_vector @@ ?', [tsq]);
    if (f.skills.length) q.whereRaw('skills @> ?::text[]', [f.skills]);
    if (f.metros.length || f.countries.length || f.locationLike) {
      q.where((w) => {
        if (f.metros.length) w.orWhere('metro', '=', oneOf(db, f.metros));
        if (f.countries.length) w.orWhere('country', '=', oneOf(db, f.countries));
        if (f.locationLike) w.orWhereILike('location', f.locationLike);
      });
    }
    if (f.company) q.whereRaw('lower(company) = ?', [f.company]);
    return q;
  };
  /** The kept total of a filter under the people table's current revision (null when not counted yet), as a subquery. */
  const keptTotal = (filterKey: string) =>
    db('people_revision as r').join('people_search_totals as t', 't.revision', 'r.revision').where('t.filter_key', filterKey).select('t.total');
  /**
   * Counts the matches of a filter up to PEOPLE_TOTAL_CAP and keeps the count under the people
   * table's revision, read in the same statement (one snapshot): the next page of the same search,
   * or another client's same search, reads it (keptTotal) until people are written again.
   */
  const countMatches = async (f: PeopleFilter, filterKey: string): Promise<number> => {
    const { rows } = await db.raw(
      `with rev as (select revision from people_revision),
        counted as (select count(*)::int as total from (?) as capped),
        kept as (
          insert into people_search_totals (filter_key, revision, total) select ?, rev.revision, counted.total from rev, counted
          on conflict (filter_key) do update set revision = excluded.revision, total = excluded.total
            where people_search_totals.revision <= excluded.revision)
      select rev.revision, counted.total from rev, counted`,
      [matching(f).select(db.raw('1')).limit(PEOPLE_TOTAL_CAP), filterKey],
    );
    const { revision, total } = rows[0] as { revision: string; total: number };
    if (prunedBelow.get(db) !== revision) {
      prunedBelow.set(db, revision);
      // Totals of older revisions are never read again. Rows another call holds are skipped, so
      // this statement never waits (and never deadlocks with a concurrent count's upsert).
      await db.raw(
        `delete from people_search_totals where filter_key in
          (select filter_key from people_search_totals where revision < ? for update skip locked)`,
        [revision],
      );
    }
    return total;
  };
  return {
    async search(f: PeopleFilter, limit: number, offset: number): Promise<{ rows: CandidateSummary[]; total: number; totalExact: boolean }> {
      const filterKey = peopleFilterKey(f);
      // The page, and on each of its rows the kept total if any (one round trip, one snapshot).
      const page: (CandidateSummary & { kept_total: number | null })[] = await matching(f)
        .select('id as person_id', 'first_name', 'last_name', 'title', 'company', 'location', 'network_url', 'open_profile', 'premium', 'summary')
        .select(keptTotal(filterKey).as('kept_total'))
        .orderBy([
          { column: 'updated_at', order: 'desc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(limit)
        .offset(offset);
      const rows = page.map(({ kept_total: _kept, ...row }) => row);
      // A page that is not full (and not past the end) ends the matches: no count needed.
      if (rows.length < limit && (rows.length > 0 || offset === 0)) return { rows, total: offset + rows.length, totalExact: true };
      // A page past the end carries no row to read the kept total from.
      const kept = page.length ? page[0].kept_total : ((await keptTotal(filterKey).first()) as { total: number } | undefined)?.total;
      const counted = kept ?? (await countMatches(f, filterKey));
      // Below the cap the count is every match, whatever the offset (a page past the end included).
      if (counted < PEOPLE_TOTAL_CAP) return { rows, total: counted, totalExact: true };
      // Counting stopped at the cap: at least that many, and at least as many as this page reaches.
      return { rows, total: Math.max(counted, offset + rows.length), totalExact: false };
    },
    async profile(id: string): Promise<PersonProfile | undefined> {
      const row: { profile: PersonProfile } | undefined = await db('people_profiles').where({ id }).first('profile');
      return row?.profile;
    },
  };
}
