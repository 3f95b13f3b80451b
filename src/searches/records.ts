import type { PersonRow } from '../db/search.repository';
import type { CandidateSummary } from '../providers/profile-source';

/** The Records CSV columns, in the spec's order. */
export const RECORD_COLUMNS = [
  'status', 'score', 'page', 'first_name', 'last_name', 'title', 'company', 'location', 'network_url', 'open_profile', 'premium',
  'summary', 'candidate_id', 'about', 'experience_history', 'education', 'skills', 'certifications', 'languages', 'projects', 'connections',
] as const;


/** One record: everything the result page showed, plus the profile when it was read. */
export function recordResource(row: PersonRow) {
  const s = row.summary as unknown as Omit<CandidateSummary, 'person_id'>;
  return {
    status: row.status,
    score: row.score,
    page: row.page + 1,
    candidate_id: row.candidate_id,
    first_name: s.first_name,
    last_name: s.last_name,
    title: s.title,
    company: s.company,
    location: s.location,
    network_url: s.network_url,
    open_profile: s.open_profile,
    premium: s.premium,
    summary: s.summary,
    profile: row.profile,
  };
}

/**
 * The Records CSV line of every person of a seq range (columns in RECORD_COLUMNS order,
 * CRLF-terminated), joined from the fragments stored with each row (migration 1100): the export
 * handles one string per row and no profile objects, which keeps it fast and small in memory.
 */
export const RECORD_CSV_SQL = `
  select concat_ws(',', sp.status, coalesce(sp.score::text, ''), (sp.page + 1)::text, sp.csv_person, sp.candidate_id::text, sp.csv_profile) || E'\r\n' as line
    from search_people sp
   where sp.search_id = ? and sp.seq > ? and sp.seq <= ?
   order by sp.seq`;
