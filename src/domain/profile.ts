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

export interface PersonProfile {
  /** Stable profile id on the network, e.g. `p0000123`. */
  id: string;
  first_name: string;
  last_name: string;
  /** Current title, e.g. "Senior Backend Engineer". */
  title: string;
  seniority: Seniority;
  /** Role family id from the reference data, e.g. `software_engineering`. */
  family: string;
  company: string;
  /** Industry of the current company (a reference industry name). */
  industry: string;
  /** Metro id from the reference data, e.g. `san-francisco-bay-area`. */
  metro: string;
  /** Human-readable location, e.g. "San Francisco, California, United States". */
  location: string;
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
