import type { Db } from './knex';
import type { SearchRow } from './search.repository';

/** Scans are searches seen from the app (DESIGN.md §10). */
export function scanRepository(db: Db) {
  return {
    /** The workspace's newest searches across all projects. */
    async newest(workspaceId: string, limit: number): Promise<SearchRow[]> {
      return db('searches')
        .where({ workspace_id: workspaceId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit);
    },
  };
}
