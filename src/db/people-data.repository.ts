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

/** `total` counts matches up to this many (the depth PDL pages to); a deeper page reports at least its own end. */
export const PEOPLE_TOTAL_CAP = 10_000;

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
  return {
    async search(f: PeopleFilter, limit: number, offset: number): Promise<{ rows: CandidateSummary[]; total: number }> {
      const rows: CandidateSummary[] = await matching(f)
        .select('id as person_id', 'first_name', 'last_name', 'title', 'company', 'location', 'network_url', 'open_profile', 'premium', 'summary')
        .orderBy([
          { column: 'updated_at', order: 'desc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(limit)
        .offset(offset);
      // A page that is not full (and not past the end) ends the matches: no count needed.
      if (rows.length < limit && (rows.length > 0 || offset === 0)) return { rows, total: offset + rows.length };
      const [{ n }] = await db.from(matching(f).select(db.raw('1')).limit(PEOPLE_TOTAL_CAP).as('capped')).count({ n: '*' });
      return { rows, total: Math.max(Number(n), offset + rows.length) };
    },
    async profile(id: string): Promise<PersonProfile | undefined> {
      const row: { profile: PersonProfile } | undefined = await db('people_profiles').where({ id }).first('profile');
      return row?.profile;
    },
  };
}
