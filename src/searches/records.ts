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

/** RFC 4180 quoting in SQL, the same rule as csvField in src/domain/csv.ts. */
const q = (expr: string) => `(case when ${expr} ~ '[",\r\n]' then '"' || replace(${expr}, '"', '""') || '"' else coalesce(${expr}, '') end)`;

/**
 * The Records CSV line of every person (columns in RECORD_COLUMNS order, CRLF-terminated), built
 * by Postgres: the export handles one string per row and no profile objects, which keeps it fast
 * and small in memory.
 */
export const RECORD_CSV_SQL = `
  select concat_ws(',',
         sp.status, coalesce(sp.score::text, ''), (sp.page + 1)::text,
         ${q("(sp.summary->>'first_name')")}, ${q("(sp.summary->>'last_name')")}, ${q("(sp.summary->>'title')")}, ${q("(sp.summary->>'company')")},
         ${q("(sp.summary->>'location')")}, ${q("(sp.summary->>'network_url')")},
         case when (sp.summary->>'open_profile')::boolean then 'yes' else 'no' end,
         case when (sp.summary->>'premium')::boolean then 'yes' else 'no' end,
         ${q("(sp.summary->>'summary')")}, sp.candidate_id::text,
         ${q("(sp.profile->>'about')")},
         ${q(`(select string_agg(format('%s, %s (%s – %s)', e->>'title', e->>'company', e->>'start', coalesce(e->>'end', 'present')), ' | ' order by o)
                from jsonb_array_elements(sp.profile->'experience') with ordinality as x(e, o))`)},
         ${q(`(select string_agg(format('%s %s, %s (%s–%s)', e->>'degree', e->>'field', e->>'school', e->>'start_year', e->>'end_year'), ' | ' order by o)
                from jsonb_array_elements(sp.profile->'education') with ordinality as x(e, o))`)},
         ${q(`(select string_agg(v, '; ' order by o) from jsonb_array_elements_text(sp.profile->'skills') with ordinality as x(v, o))`)},
         ${q(`(select string_agg(v, '; ' order by o) from jsonb_array_elements_text(sp.profile->'certifications') with ordinality as x(v, o))`)},
         ${q(`(select string_agg(v, '; ' order by o) from jsonb_array_elements_text(sp.profile->'languages') with ordinality as x(v, o))`)},
         ${q(`(select string_agg(format('%s: %s', e->>'name', e->>'description'), ' | ' order by o)
                from jsonb_array_elements(sp.profile->'projects') with ordinality as x(e, o))`)},
         coalesce(sp.profile->>'connections', '')) || E'\r\n' as line
    from search_people sp
   where sp.search_id = ? and sp.seq > ? and sp.seq <= ?
   order by sp.seq`;
