import type { PersonRow } from '../db/search.repository';
import type { CandidateSummary } from '../providers/profile-source';

/** The Records CSV columns, in the spec's order. */
export const RECORD_COLUMNS = [
  'status',
  'score',
  'page',
  'first_name',
  'last_name',
  'title',
  'company',
  'location',
  'network_url',
  'open_profile',
  'premium',
  'summary',
  'candidate_id',
  'about',
  'experience_history',
  'education',
  'skills',
  'certifications',
  'languages',
  'projects',
  'connections',
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
