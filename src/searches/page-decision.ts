import type { PassRow, SearchRow, StopReason } from '../db/search.repository';
import type { ResolvedCriteria } from '../domain/criteria';
import { AppError } from '../domain/errors';
import type { PersonProfile } from '../domain/profile';
import { PAGE_SIZE, type CandidateSummary } from '../providers/profile-source';
import { scoreProfile, type ScoreResult } from '../ranking/scoring';

/**
 * What one result page of a search pass does, decided without I/O from the page and the state of
 * the search and pass: whom it reads, how they score, whom it shortlists, and whether the pass
 * stops after it. pass.service.ts reads the state, records the decision and answers the outcome.
 */

export interface PageOutcome {
  returned: number;
  read: number;
  profilesRead: number;
  delivered: number;
  shortlisted: number;
  /** Set when the pass should stop after this page. */
  stop: StopReason | null;
}

/**
 * The places of the target filled so far: everyone the search has shortlisted, except in a
 * monitor pass, which fills a target of its own (a search that reached its target still takes
 * the new people a monitor finds).
 */
export const shortlistFilled = (search: Pick<SearchRow, 'shortlisted'>, pass: Pick<PassRow, 'kind' | 'shortlisted'>): number =>
  pass.kind === 'monitor' ? pass.shortlisted : search.shortlisted;

/**
 * The pass reads within its own budget; the target counts the places filled (shortlistFilled). A
 * calibration pass reads its whole budget: it looks for people better under what was learned,
 * whether or not the list has room for them.
 */
export function stopReasonAfter(search: SearchRow, pass: PassRow, returned: number): StopReason | null {
  if (pass.kind !== 'calibration' && shortlistFilled(search, pass) >= pass.criteria.target) return 'target_reached';
  if (returned < PAGE_SIZE) return 'pool_exhausted';
  if (pass.profiles_read >= pass.criteria.read_budget) return 'read_budget_reached';
  return null;
}

/** A page's outcome: the search's totals after it and whether the pass stops. */
export const pageOutcome = (search: SearchRow, pass: PassRow, returned: number, read: number): PageOutcome => ({
  returned,
  read,
  profilesRead: search.profiles_read,
  delivered: search.delivered,
  shortlisted: search.shortlisted,
  stop: stopReasonAfter(search, pass, returned),
});

/**
 * A page of a pass that is no longer running reads nothing: a completed pass answers its own stop
 * (a step re-run after the completion, whose results were not recorded, ends where it ended), a
 * failed one refuses, so the workflow records the failure rather than a completion. Null while
 * the pass runs.
 */
export function closedPassOutcome(search: SearchRow, pass: PassRow): PageOutcome | null {
  if (pass.status === 'running') return null;
  if (pass.status === 'complete')
    return {
      returned: 0,
      read: 0,
      profilesRead: search.profiles_read,
      delivered: search.delivered,
      shortlisted: search.shortlisted,
      stop: pass.stop_reason ?? 'pool_exhausted',
    };
  throw new AppError('pass_not_running', 409, `pass ${pass.pass} of search ${search.id} is ${pass.status}, not running`);
}

/** How many profiles the pass may still read. */
export const readBudgetLeft = (pass: PassRow): number => Math.max(0, pass.criteria.read_budget - pass.profiles_read);

/** One person of the page: read and scored, or left unread. */
export interface PagePerson {
  result: CandidateSummary;
  candidateId: string;
  /** The profile read and its score; null when the person is recorded `not_read`. */
  scored: { profile: PersonProfile; score: number; breakdown: ScoreResult['breakdown'] } | null;
}

export interface PageDecision {
  /** Everyone new to the search on this page, in result order. */
  people: PagePerson[];
  /** How many profiles the page reads (and scores). */
  read: number;
  /** Candidates to add to the project's shortlist, in result order. */
  shortlist: string[];
}

/** What the page starts from: the pass's criteria and remaining read budget, the search's weights and shortlist so far. */
export interface PageState {
  criteria: ResolvedCriteria;
  budget: number;
  weights: SearchRow['scoring_weights'] | undefined;
  shortlisted: number;
  /** What the search learned from its ratings (ranking/calibration.ts). */
  calibration?: SearchRow['calibration'];
  /** Read on once the target is filled (a calibration pass); only shortlisting stops there. */
  readPastTarget?: boolean;
}

/**
 * Whom the page reads, scores and shortlists. `fresh`: the page's people new to the search, in
 * result order; `profiles`: those whose profiles were read; `candidateIds`: each person's
 * candidate id in the project; `alreadyListed`: candidates on the project's shortlist already.
 * A person is read while the budget lasts and the target is not reached (people past it stay
 * `not_read`); a read person at or above the threshold is shortlisted up to the target, unless
 * already listed (they stay as they were and fill no place).
 */
export function decidePage(
  fresh: readonly CandidateSummary[],
  profiles: ReadonlyMap<string, PersonProfile>,
  candidateIds: ReadonlyMap<string, string>,
  alreadyListed: ReadonlySet<string>,
  state: PageState,
): PageDecision {
  const { criteria, budget, weights } = state;
  let read = 0;
  let shortlisted = state.shortlisted;
  const people: PagePerson[] = [];
  const shortlist: string[] = [];
  for (const result of fresh) {
    const profile = profiles.get(result.person_id);
    const candidateId = candidateIds.get(result.person_id)!;
    if (!profile || read >= budget || (!state.readPastTarget && shortlisted >= criteria.target)) {
      people.push({ result, candidateId, scored: null });
      continue;
    }
    read += 1;
    const { score, breakdown } = scoreProfile(profile, criteria, weights, state.calibration);
    if (score >= criteria.shortlist_threshold && !alreadyListed.has(candidateId) && shortlisted < criteria.target) {
      shortlist.push(candidateId);
      shortlisted += 1;
    }
    people.push({ result, candidateId, scored: { profile, score, breakdown } });
  }
  return { people, read, shortlist };
}
