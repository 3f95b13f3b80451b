import type { ResolvedCriteria } from '../domain/criteria';
import type { PersonProfile } from '../domain/profile';
import type { CandidateSummary } from './profile-source';
import type { ToolCallAnswer, ToolCallRequest } from './openai';

/**
 * The four provider capabilities (DESIGN.md §9). Each has one HTTP adapter speaking its vendor's
 * wire format; profile data and web search also have a built-in implementation over our database.
 * `source` is what answered, as shown to API callers: `builtin` or the vendor's provider id.
 */
export type SourceName = 'builtin' | 'peopledatalabs' | 'brave' | 'openai' | 'hunter';

export interface PeopleQuery {
  /** Free text over title and skills (required by the endpoint). */
  search: string;
  location?: string;
  title?: string;
  company?: string;
  skills?: string[];
  limit: number;
  offset: number;
}

export interface CompanyQuery {
  search: string;
  location?: string;
  industry?: string;
  limit: number;
  offset: number;
}

export interface CompanySummary {
  company_id: string;
  name: string;
  industry: string;
  website: string | null;
  location: string | null;
  size: string | null;
  founded: number | null;
}

export interface CompanyProfile extends CompanySummary {
  employee_count: number | null;
  summary: string | null;
  network_url: string | null;
  tags: string[];
}

export interface Page<T> {
  results: T[];
  /** Matches in the source (the built-in people search counts at most PEOPLE_TOTAL_CAP; vendors report theirs). */
  total: number;
  /** false when the source stopped counting: `total` is then a lower bound. Absent: exact. */
  totalExact?: boolean;
}

export interface ProfileDataProvider {
  readonly source: SourceName;
  searchPeople(q: PeopleQuery): Promise<Page<CandidateSummary>>;
  /** The full profile, or null when the source has no such person. */
  enrichPerson(profileId: string): Promise<PersonProfile | null>;
  searchCompanies(q: CompanyQuery): Promise<Page<CompanySummary>>;
  enrichCompany(companyId: string): Promise<CompanyProfile | null>;
}

/** A page of a search pass's people: its criteria, for a source that filters and ranks on them itself. */
export interface CriteriaQuery {
  criteria: ResolvedCriteria;
  limit: number;
  offset: number;
}

/** Profile data a live search pass pages by the search's criteria, best match first (People Data Labs). */
export interface LiveProfileDataProvider extends ProfileDataProvider {
  searchPeopleByCriteria(q: CriteriaQuery): Promise<Page<CandidateSummary>>;
}

export interface WebResult {
  title: string;
  url: string;
  snippet: string;
  /** ISO timestamp, or null when the source does not date the page. */
  published_at: string | null;
}

export interface WebSearchProvider {
  readonly source: SourceName;
  search(query: string, count: number): Promise<WebResult[]>;
}

export interface LanguageModelProvider {
  readonly source: SourceName;
  /** One chat completion that must call the given tool. */
  callTool(req: Omit<ToolCallRequest, 'model'> & { model?: string }): Promise<ToolCallAnswer>;
}

export interface EmailLookup {
  first_name: string;
  last_name: string;
  /** The company's domain (e.g. `acme.com`) or, when unknown, its name. */
  domain?: string;
  company?: string;
}

export interface FoundEmail {
  email: string;
  /** The vendor's confidence, 0–100. */
  score: number | null;
  position: string | null;
}

export interface ContactDataProvider {
  readonly source: SourceName;
  /** The person's professional email, or null when the vendor found none. */
  findEmail(lookup: EmailLookup): Promise<FoundEmail | null>;
}

/** The built-in sources count matches up to this many (a full count of a broad query costs a scan). */
export const MAX_COUNTED = 10_000;
