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

/**
 * The people database as the data endpoints read it: one indexed statement per search (full text
 * over the people.search_vector GIN index, place and skill filters), its count riding on the same
 * scan, and one primary-key read per profile.
 */
export function peopleDataRepository(db: Db) {
  return {
    async search(f: PeopleFilter, limit: number, offset: number): Promise<{ rows: CandidateSummary[]; total: number }> {
      const tsq = f.titlePhrase
        ? db.raw(`(websearch_to_tsquery('english', ?) && phraseto_tsquery('english', ?))`, [f.text, f.titlePhrase])
        : db.raw(`websearch_to_tsquery('english', ?)`, [f.text]);
      const q = db('people')
        .select(
          'id as person_id',
          'first_name',
          'last_name',
          'title',
          'company',
          'location',
          'network_url',
          'open_profile',
          'premium',
          'summary',
          db.raw('count(*) over () as total'),
        )
        .whereRaw('search_vector @@ ?', [tsq]);
      if (f.skills.length) q.whereRaw('skills @> ?::text[]', [f.skills]);
      if (f.metros.length || f.countries.length || f.locationLike) {
        q.where((w) => {
          if (f.metros.length) w.orWhere('metro', '=', db.raw('any(?::text[])', [f.metros]));
          if (f.countries.length) w.orWhere('country', '=', db.raw('any(?::text[])', [f.countries]));
          if (f.locationLike) w.orWhereILike('location', f.locationLike);
        });
      }
      if (f.company) q.whereRaw('lower(company) = ?', [f.company]);
      const rows: (CandidateSummary & { total: number })[] = await q.orderByRaw('ts_rank_cd(search_vector, ?) desc, id asc', [tsq]).limit(limit).offset(offset);
      return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total ?? 0 };
    },
    async profile(id: string): Promise<PersonProfile | undefined> {
      const row: { profile: PersonProfile } | undefined = await db('people_profiles').where({ id }).first('profile');
      return row?.profile;
    },
  };
}
