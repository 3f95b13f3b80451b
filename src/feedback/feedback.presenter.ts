import type { FeedbackRow } from '../db/feedback.repository';
import type { StoredCalibration } from '../db/search.repository';
import type { LearnedValue } from '../ranking/calibration';

/** The JSON of ratings and of what a search learned from them (shapes in feedback.schemas.ts). */

/** Values a search record lists on each side; the scorer uses all it learned. */
const LISTED_VALUES = 10;

export function ratingResource(r: FeedbackRow) {
  return {
    candidate_id: r.candidate_id,
    name: r.name.trim(),
    verdict: r.verdict,
    reasons: r.reasons,
    note: r.note,
    rated_at: new Date(r.updated_at).toISOString(),
  };
}

const valueResource = (v: LearnedValue) => ({ kind: v.kind, value: v.label, weight: v.weight, good: v.good, bad: v.bad });

/** `calibration` of the search record: null until the search has learned from ratings. */
export function calibrationResource(c: StoredCalibration | null) {
  if (!c) return null;
  return {
    ratings: c.ratings,
    good: c.good,
    bad: c.bad,
    share: c.share,
    weights: c.multipliers,
    preferred: c.values
      .filter((v) => v.weight > 0)
      .slice(0, LISTED_VALUES)
      .map(valueResource),
    avoided: c.values
      .filter((v) => v.weight < 0)
      .slice(0, LISTED_VALUES)
      .map(valueResource),
    updated_at: c.updated_at,
  };
}
