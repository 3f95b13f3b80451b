import type { PersonRow } from '../db/search.repository';
import type { PersonProfile } from '../domain/profile';
import type { CandidateSummary } from '../providers/profile-source';

/** The Records CSV columns, in the spec's order. */
export const RECORD_COLUMNS = [
  'status', 'score', 'page', 'first_name', 'last_name', 'title', 'company', 'location', 'network_url', 'open_profile', 'premium',
  'summary', 'candidate_id', 'about', 'experience_history', 'education', 'skills', 'certifications', 'languages', 'projects', 'connections',
] as const;


const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** Text forms of the profile sections, for the CSV (empty when the profile was not read). */
export function profileText(profile: PersonProfile | null) {
  if (!profile) return { about: '', experience_history: '', education: '', skills: '', certifications: '', languages: '', projects: '', connections: '' };
  return {
    about: profile.about,
    experience_history: profile.experience.map((e) => `${e.title}, ${e.company} (${e.start} – ${e.end ?? 'present'})`).join(' | '),
    education: profile.education.map((e) => `${e.degree} ${e.field}, ${e.school} (${e.start_year}–${e.end_year})`).join(' | '),
    skills: profile.skills.join('; '),
    certifications: profile.certifications.join('; '),
    languages: profile.languages.join('; '),
    projects: profile.projects.map((p) => `${p.name}: ${p.description}`).join(' | '),
    connections: String(profile.connections),
  };
}

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

/** The CSV values of one record, in RECORD_COLUMNS order. */
export function recordCsvValues(row: PersonRow): unknown[] {
  const r = recordResource(row);
  const text = profileText(row.profile as PersonProfile | null);
  return [
    r.status, r.score ?? '', r.page, r.first_name, r.last_name, r.title, r.company, r.location, r.network_url, yesNo(r.open_profile), yesNo(r.premium),
    r.summary, r.candidate_id, text.about, text.experience_history, text.education, text.skills, text.certifications, text.languages, text.projects, text.connections,
  ];
}
