import type { ResolvedCriteria } from '../domain/criteria';
import type { PersonProfile } from '../domain/profile';
import type { Calibration } from '../ranking/calibration';
import type { ScoringWeights } from '../ranking/signals';

/** What a result page of the network shows about a person before their profile is read. */
export interface CandidateSummary {
  person_id: string;
  first_name: string;
  last_name: string;
  title: string;
  company: string;
  location: string;
  network_url: string;
  open_profile: boolean;
  premium: boolean;
  summary: string;
}

/**
 * The professional network as the search sees it: ranked result pages for criteria, and profile
 * reads (the expensive part, limited by a search's read budget). The built-in implementation is
 * the people database; live HTTP sources plug in behind the same interface.
 */
export interface ProfileSource {
  readonly name: string;
  /**
   * Page `page` (0-based) of the ranked results; fewer than `pageSize` means the pool is exhausted.
   * `ranking`: a calibrated search's weights and what it learned, for a source that can rank by them.
   */
  searchPage(criteria: ResolvedCriteria, page: number, pageSize: number, ranking?: PageRanking): Promise<CandidateSummary[]>;
  /** Full profiles of the given people; people the source no longer has are missing from the map. */
  readProfiles(personIds: string[]): Promise<Map<string, PersonProfile>>;
  /**
   * Set by a source that bills each profile read: a page then reads at most this many at once
   * and no more than could still fill the shortlist, so nobody past the target is read (and
   * billed). Unset: a page's profiles are read in one call.
   */
  readonly billedReadBatch?: number;
}

/** How a calibrated search wants its results ordered (ranking/calibration.ts). */
export interface PageRanking {
  weights: Partial<ScoringWeights> | null;
  calibration: Calibration;
}

export const PAGE_SIZE = 25;
