import type { SearchRow } from '../db/search.repository';
import { searchLinks } from '../events/links';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** `data` of search.* events: ids, counts and links, never profiles. */
export function searchEventData(search: SearchRow, baseUrl: string) {
  return {
    search_id: search.id,
    project_id: search.project_id,
    status: search.status,
    outcome: search.outcome,
    stop_reason: search.stop_reason,
    profiles_read: search.profiles_read,
    delivered: search.delivered,
    shortlisted: search.shortlisted,
    closed_at: iso(search.closed_at),
    links: searchLinks(baseUrl, search.id, search.project_id),
  };
}
