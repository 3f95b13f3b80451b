/**
 * A person's profile as the professional network shows it. The built-in corpus generates these,
 * the `people` table stores them, scoring reads them, and the Records CSV prints them.
 */

import type { Seniority } from '../reference/taxonomy';

// Seniorities are reference data (src/reference); profiles and criteria use them from there.
export { SENIORITIES, type Seniority } from '../reference/taxonomy';

export interface ExperienceEntry {
  title: string;
  company: string;
  industry: string;
  /** 'YYYY-MM' */
  start: string;
  /** 'YYYY-MM', or null for the current position */
  end: string | null;
  description: string;
}

export interface EducationEntry {
  school: string;
  degree: string;
  field: string;
  start_year: number;
  end_year: number;
}

export interface ProjectEntry {
  name: string;
  description: string;
}

/**
 * Where a person is (DESIGN.md §4a): a gazetteer place for the built-in corpus, what a live source
 * says for others (People Data Labs' location_* fields). Coordinates may be unknown.
 */
export interface PersonLocation {
  /** Human-readable, e.g. "Leeds, England, United Kingdom". */
  name: string;
  /** City or town. */
  locality: string;
  /** First-level region (state, province, country of the UK). */
  region: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  lat: number | null;
  lon: number | null;
}

export interface PersonOccupation {
  /** O*NET-SOC code, e.g. "29-1051.00". */
  onet_code: string;
  /** The occupation's O*NET title, e.g. "Pharmacists". */
  title: string;
}

export interface PersonProfile {
  /** Stable profile id on the network, e.g. `p0000123`. */
  id: string;
  first_name: string;
  last_name: string;
  /** Current title, e.g. "Senior Backend Engineer". */
  title: string;
  seniority: Seniority;
  /** Role family id from the reference data, e.g. `software_engineering`; '' outside every family. */
  family: string;
  /** The O*NET-SOC occupation of the current position (People Data Labs' job_onet_code), when known. */
  occupation: PersonOccupation | null;
  company: string;
  /** Industry of the current company (a reference industry name). */
  industry: string;
  /** The old metro the person is in (src/reference/data/metros.json), or '' outside all 68. */
  metro: string;
  location: PersonLocation;
  /** Address of the profile on the professional network. */
  network_url: string;
  open_profile: boolean;
  premium: boolean;
  /** One-line headline summary. */
  summary: string;
  /** Longer free text "about" section. */
  about: string;
  years_experience: number;
  /** Newest first; the first entry is the current position. */
  experience: ExperienceEntry[];
  education: EducationEntry[];
  /** Reference skill names. */
  skills: string[];
  certifications: string[];
  /** e.g. "English (native)", "Spanish (professional)". */
  languages: string[];
  projects: ProjectEntry[];
  connections: number;
  /** ISO timestamp of the profile version (a database pass re-reads newer versions). */
  updated_at: string;
}
