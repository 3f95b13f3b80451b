import type { Db } from '../db/knex';
import { projectRepository } from '../db/project.repository';
import { searchPeopleRepository } from '../db/search-people.repository';
import { searchRepository, type SearchRow } from '../db/search.repository';
import { shortlistRepository } from '../db/shortlist.repository';
import { parseCriteria, type ResolvedCriteria } from '../domain/criteria';
import { AppError } from '../domain/errors';
import { scoreProfile, type ScoringWeights } from '../ranking/scoring';
import { defaultWeightsFor, SIGNAL_NAMES } from '../ranking/signals';
import { scoringChangeBody, type ScoringChangeBody } from './searches.schemas';
import { shortlistSnapshot, writeShortlistChanged, type ShortlistKind, type ShortlistSource } from '../shortlist/shortlist.service';

/**
 * Scoring changes (preview and apply) and the shortlist that follows a re-score. A change may
 * touch weights, skills, must-have skills, years, industries and the threshold; titles, family,
 * occupations and places (metro, locations) decide who is found, so changing them needs a new search.
 */

const CHANGEABLE = ['skills', 'must_have_skills', 'years_experience', 'industries', 'shortlist_threshold'] as const;
const NEEDS_NEW_SEARCH = ['titles', 'family', 'occupations', 'like', 'places', 'metro', 'locations'] as const;
const TOP_CHANGES = 10;

export interface ScoringChange {
  criteria: Record<string, unknown>;
  weights: Partial<ScoringWeights>;
}

export interface Scoring {
  criteria: ResolvedCriteria;
  weights: ScoringWeights;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Resolves a validated change (searches.schemas.ts `scoringChangeBody`) against the search's
 * current scoring. The domain rules stay here: titles, family, metro or locations may only be
 * sent unchanged, the merged weights need one above 0, the merged criteria must be valid.
 */
export function resolveScoringChange(search: SearchRow, body: ScoringChangeBody): { change: ScoringChange; scoring: Scoring } {
  const patch: Record<string, unknown> = body.criteria ?? {};
  const weights: Partial<ScoringWeights> = body.weights ?? {};

  const moved = NEEDS_NEW_SEARCH.filter((k) => k in patch && !same(patch[k], (search.criteria as Record<string, unknown>)[k]));
  if (moved.length) throw new AppError('needs_new_search', 400, `Changing ${moved.join(', ')} changes who is found: launch a new search`, { fields: moved });
  const mergedWeights: ScoringWeights = { ...defaultWeightsFor(search.criteria), ...(search.scoring_weights ?? {}), ...weights };
  if (SIGNAL_NAMES.every((k) => mergedWeights[k] === 0)) throw new AppError('invalid_request', 400, 'At least one weight must be above 0');

  const merged: Record<string, unknown> = { ...search.criteria };
  for (const key of CHANGEABLE) {
    if (!(key in patch)) continue;
    if (patch[key] === null) delete merged[key];
    else merged[key] = patch[key];
  }
  // Places cannot change here and are stored resolved: they are kept as they are, not parsed again as input.
  const { places, likeness, ...rest } = merged;
  const parsed = parseCriteria(rest);
  if (!parsed.ok) throw new AppError('invalid_criteria', 400, parsed.problems.map((p) => `${p.field}: ${p.message}`).join('; '), { problems: parsed.problems });
  const criteria = {
    ...parsed.criteria,
    ...(places ? { places: places as ResolvedCriteria['places'] } : {}),
    ...(likeness ? { likeness: likeness as ResolvedCriteria['likeness'] } : {}),
  };
  return { change: { criteria: patch, weights }, scoring: { criteria, weights: mergedWeights } };
}

function distribution(scores: number[]) {
  const buckets = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i === 9 ? 100 : i * 10 + 9, count: 0 }));
  for (const s of scores) buckets[Math.min(9, Math.floor(s / 10))].count += 1;
  return buckets;
}

/** What a scoring change would do, changing nothing. */
export async function previewScoring(db: Db, search: SearchRow, scoring: Scoring) {
  const people = await searchPeopleRepository(db).scored(search.id);
  const before = search.criteria.shortlist_threshold;
  const after = scoring.criteria.shortlist_threshold;
  const rescored = people.map((p) => ({ ...p, next: scoreProfile(p.profile, scoring.criteria, scoring.weights, search.calibration).score }));
  const changes = rescored
    .filter((p) => p.next !== p.score)
    .sort((a, b) => Math.abs(b.next - b.score) - Math.abs(a.next - a.score) || a.seq - b.seq)
    .slice(0, TOP_CHANGES)
    .map((p) => ({ candidate_id: p.candidate_id, name: p.name, score_before: p.score, score_after: p.next, delta: p.next - p.score }));
  return {
    search_id: search.id,
    people: people.length,
    changed: rescored.filter((p) => p.next !== p.score).length,
    threshold: { before, after },
    distribution: { before: distribution(people.map((p) => p.score)), after: distribution(rescored.map((p) => p.next)) },
    threshold_crossings: {
      entering: rescored.filter((p) => p.score < before && p.next >= after).length,
      leaving: rescored.filter((p) => p.score >= before && p.next < after).length,
    },
    top_changes: changes,
    criteria: scoring.criteria,
    weights: scoring.weights,
  };
}

/**
 * Makes the shortlist follow new scores: members this search put on the list automatically who
 * now fall below the threshold leave; the best-scoring people at or above it join, up to the
 * target. Members added by hand are never touched.
 */
export async function followScores(
  trx: Db,
  search: SearchRow,
  criteria: ResolvedCriteria,
  event: { kind: ShortlistKind; source: ShortlistSource; dedupeKey: string; baseUrl: string; always?: boolean },
): Promise<{ added: string[]; removed: string[] }> {
  const shortlist = shortlistRepository(trx);
  await projectRepository(trx).lock(search.project_id);
  const before = await shortlistSnapshot(trx, search.project_id);
  const auto = await shortlist.autoMembersOfSearch(search.project_id, search.id);
  const removed = auto.filter((m) => m.score === null || m.score < criteria.shortlist_threshold).map((m) => m.candidate_id);
  await shortlist.remove(search.project_id, removed);
  const room = Math.max(0, criteria.target - (auto.length - removed.length));
  const joining = room ? await searchPeopleRepository(trx).bestUnlisted(search.id, search.project_id, criteria.shortlist_threshold, room) : [];
  await shortlist.add(joining.map((candidateId) => ({ project_id: search.project_id, candidate_id: candidateId, search_id: search.id, source: event.source })));
  await searchRepository(trx).update(search.id, { shortlisted: await shortlist.countAddedBySearch(search.project_id, search.id) });
  if (joining.length || removed.length || event.always) {
    await writeShortlistChanged(trx, {
      workspaceId: search.workspace_id,
      projectId: search.project_id,
      searchId: search.id,
      kind: event.kind,
      source: event.source,
      before,
      after: await shortlistSnapshot(trx, search.project_id),
      dedupeKey: event.dedupeKey,
      baseUrl: event.baseUrl,
    });
  }
  return { added: joining, removed };
}

/** Applies a scoring change: same people, new scores, the shortlist following; no credits. */
export async function applyScoring(db: Db, input: { searchId: string; body: unknown; requestId: string; baseUrl: string }) {
  return db.transaction(async (trx) => {
    const searches = searchRepository(trx);
    const people = searchPeopleRepository(trx);
    const search = await searches.lock(input.searchId);
    if (search.status !== 'complete')
      throw new AppError(
        search.status === 'failed' ? 'search_not_finished' : 'search_running',
        409,
        `The search is ${search.status}; scoring changes apply to completed searches`,
      );
    // The body crossed a workflow boundary as JSON: the route's schema reads it back.
    const { scoring } = resolveScoringChange(search, scoringChangeBody.parse(input.body));
    const current = await people.scored(search.id);
    const scores = current.map((p) => {
      const scored = scoreProfile(p.profile, scoring.criteria, scoring.weights, search.calibration);
      return { candidate_id: p.candidate_id, score: scored.score, breakdown: scored.breakdown, changed: scored.score !== p.score };
    });
    await people.storeScores(search.id, scores);
    const updated = await searches.update(search.id, { criteria: scoring.criteria, scoring_weights: scoring.weights });
    const { added, removed } = await followScores(trx, updated, scoring.criteria, {
      kind: 'rescored',
      source: 'scoring',
      dedupeKey: `shortlist.changed:scoring:${search.id}:${input.requestId}`,
      baseUrl: input.baseUrl,
    });
    const shortlisted = (await searches.find(search.id))!.shortlisted;
    return {
      search_id: search.id,
      rescored: scores.length,
      changed: scores.filter((s) => s.changed).length,
      added,
      removed,
      shortlisted,
      criteria: scoring.criteria,
      weights: scoring.weights,
    };
  });
}
