import type { Db } from './knex';

export interface WebPageRow {
  id: number;
  kind: 'company' | 'bio' | 'news';
  url: string;
  title: string;
  snippet: string;
  body: string;
  published_at: string | null;
}

/** The built-in web search corpus (`web_pages`): generated public pages ranked by full text. */
export function webPagesRepository(db: Db) {
  return {
    async insertMissing(rows: WebPageRow[]): Promise<number> {
      const added = await db('web_pages').insert(rows).onConflict('id').ignore().returning('id');
      return added.length;
    },
    async count(): Promise<number> {
      const [{ n }] = await db('web_pages').count({ n: '*' });
      return Number(n);
    },
    async analyze(): Promise<void> {
      await db.raw('analyze web_pages');
    },
    /** The best `count` pages for a websearch-syntax query (GIN index, ts_rank_cd), newest first on ties. */
    async search(query: string, count: number): Promise<Pick<WebPageRow, 'title' | 'url' | 'snippet' | 'published_at'>[]> {
      const tsq = db.raw(`websearch_to_tsquery('english', ?)`, [query]);
      return db('web_pages')
        .select('title', 'url', 'snippet', 'published_at')
        .whereRaw('search_vector @@ ?', [tsq])
        .orderByRaw('ts_rank_cd(search_vector, ?) desc, published_at desc nulls last, id asc', [tsq])
        .limit(count);
    },
  };
}
