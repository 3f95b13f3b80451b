import type { CompanyRecord } from '../corpus/company-directory';
import type { Db } from './knex';

export interface CompanyFilter {
  /** websearch_to_tsquery text over name, industry and summary. */
  text: string;
  metros: string[];
  countries: string[];
  /** Case-insensitive substring of the location when the place is no known metro or country. */
  locationLike: string | null;
  /** Lower-case industry name. */
  industry: string | null;
}

const SUMMARY_COLUMNS = ['id', 'name', 'industry', 'website', 'location', 'size', 'founded'];

/** The built-in company source (`companies`, loaded with the corpus). */
export function companiesRepository(db: Db) {
  return {
    async insertMissing(rows: CompanyRecord[]): Promise<number> {
      const added = await db('companies').insert(rows).onConflict('id').ignore().returning('id');
      return added.length;
    },
    async count(): Promise<number> {
      const [{ n }] = await db('companies').count({ n: '*' });
      return Number(n);
    },
    async analyze(): Promise<void> {
      await db.raw('analyze companies');
    },
    /**
     * Ranked matches and their count, in one statement (the count rides on the ranking scan); a
     * page past the end has no row to carry it, so only then is it counted on its own.
     */
    async search(f: CompanyFilter, limit: number, offset: number): Promise<{ rows: Omit<CompanyRecord, 'metro' | 'country'>[]; total: number }> {
      const tsq = db.raw(`websearch_to_tsquery('english', ?)`, [f.text]);
      const matching = () => {
        const q = db('companies').whereRaw('search_vector @@ ?', [tsq]);
        if (f.metros.length || f.countries.length || f.locationLike) {
          q.where((w) => {
            if (f.metros.length) w.orWhere('metro', '=', db.raw('any(?::text[])', [f.metros]));
            if (f.countries.length) w.orWhere('country', '=', db.raw('any(?::text[])', [f.countries]));
            if (f.locationLike) w.orWhereILike('location', f.locationLike);
          });
        }
        if (f.industry) q.whereRaw('lower(industry) = ?', [f.industry]);
        return q;
      };
      const page: (Omit<CompanyRecord, 'metro' | 'country'> & { total: string })[] = await matching()
        .select(...SUMMARY_COLUMNS, db.raw('count(*) over () as total'))
        .orderByRaw('ts_rank_cd(search_vector, ?) desc, id asc', [tsq])
        .limit(limit)
        .offset(offset);
      const rows = page.map(({ total: _total, ...row }) => row);
      if (page.length || offset === 0) return { rows, total: Number(page[0]?.total ?? 0) };
      const [{ n }] = await matching().count({ n: '*' });
      return { rows, total: Number(n) };
    },
    find(id: string): Promise<CompanyRecord | undefined> {
      return db('companies').where({ id }).first();
    },
  };
}
