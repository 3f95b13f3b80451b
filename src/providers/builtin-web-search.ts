import type { Db } from '../db/knex';
import { webPagesRepository } from '../db/web-pages.repository';
import type { WebSearchProvider } from './capabilities';

/** The embedded default web search: generated public pages in Postgres, full-text ranked. */
export function builtinWebSearch(db: Db): WebSearchProvider {
  const pages = webPagesRepository(db);
  return {
    source: 'builtin',
    async search(query, count) {
      const rows = await pages.search(query, count);
      return rows.map((r) => ({
        title: r.title,
        url: r.url,
        snippet: r.snippet,
        published_at: r.published_at ? new Date(r.published_at).toISOString() : null,
      }));
    },
  };
}
