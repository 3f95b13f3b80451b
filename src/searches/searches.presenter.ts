import type { PassRow, RawPerson, SearchRow } from '../db/search.repository';
import { searchLinks } from '../events/links';
import { calibrationResource } from '../feedback/feedback.presenter';

/** The JSON the key API sends for searches, passes and people (shapes in searches.schemas.ts). */

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

/** The latest pass of a search as its record shows it (expansions, database passes). */
export function passResource(pass: PassRow) {
  return {
    pass: pass.pass,
    kind: pass.kind,
    level: pass.level,
    status: pass.status,
    profiles_read: pass.profiles_read,
    delivered: pass.delivered,
    shortlisted: pass.shortlisted,
    stop_reason: pass.stop_reason,
    outcome: pass.outcome,
    broadening: pass.broadening,
    criteria: pass.criteria,
  };
}

/** The search record of the key API (GET /searches/{id}, launch responses, project search lists). */
export function searchResource(search: SearchRow, baseUrl: string, lastPass?: PassRow) {
  const { links, ...event } = searchEventData(search, baseUrl);
  return {
    id: search.id,
    ...event,
    pages_fetched: search.pages_fetched,
    passes: search.pass_count,
    source: search.source,
    criteria: search.criteria,
    jd_text: search.jd_text,
    jd_confidence: search.jd_confidence,
    failure_reason: search.failure_reason,
    created_at: iso(search.created_at),
    started_at: iso(search.started_at),
    ...(lastPass ? { last_pass: passResource(lastPass) } : {}),
    calibration: calibrationResource(search.calibration ?? null),
    links,
  };
}

/** How much of its job description a search shows in lists; the search record has all of it. */
export const JD_EXCERPT_LENGTH = 500;

/**
 * A search as lists show it (a project's searches, the app's scans): the record without its job
 * description, which can be 20,000 characters, but with its first 500 and its length.
 */
export function listedSearch(search: SearchRow, baseUrl: string) {
  const { jd_text: jdText, ...record } = searchResource(search, baseUrl);
  return {
    ...record,
    jd_text_excerpt: jdText === null ? null : jdText.slice(0, JD_EXCERPT_LENGTH),
    jd_text_length: jdText === null ? null : jdText.length,
  };
}

/** A person of GET /searches/{id}/people, as JSON text (profile and breakdown spliced in raw). */
export function personJson(row: RawPerson, withProfile: boolean): string {
  return `{"id":${JSON.stringify(row.candidate_id)},"name":${JSON.stringify(row.name)},"score":${row.score},"score_breakdown":${row.breakdown_json ?? 'null'}${withProfile ? `,"profile":${row.profile_json ?? 'null'}` : ''}}`;
}
