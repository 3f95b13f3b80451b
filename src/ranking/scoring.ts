/**
 * Scoring: profile × criteria → integer 0–100 with a per-criterion breakdown. Pure and
 * deterministic (no clock, no randomness), so a re-score of the same people gives the same numbers.
 *
 * Rules (each signal's own rule is in signals.ts, with its SQL twin)
 * - A signal counts only when the search uses it and its weight is > 0; the score is
 *   100 × Σ(weight × match) / Σ(weight) over those signals, rounded and clamped to 0–100.
 *   No counted signal at all → 0 (nothing to judge means nobody is auto-shortlisted).
 * - A missing must-have skill caps the score at 40 and is listed in `must_have_missing`.
 * - Currently at an excluded company (case-insensitive) → score 0, `excluded: true`.
 * - Missing or malformed profile fields count as no match; they never throw.
 * - A calibrated search (ranking/calibration.ts) multiplies the weights by what it learned and
 *   adds a `calibration` line weighing `share` of the score.
 */
import type { ResolvedCriteria } from '../domain/criteria';
import type { PersonProfile } from '../domain/profile';
import { calibratedWeights, calibrationLine, type Calibration } from './calibration';
import { defaultWeightsFor, experienceOf, SIGNALS, type ScoringWeights, type SignalName } from './signals';

export { DEFAULT_WEIGHTS, YEARS_DECAY, type ScoringWeights } from './signals';
/** A signal, or the line a search's calibration adds (ranking/calibration.ts). */
export type CriterionName = SignalName | 'calibration';

export interface CriterionScore {
  criterion: CriterionName;
  weight: number;
  /** 0..1 */
  match: number;
  /** Rounded contribution to the 0–100 score. */
  points: number;
  reason: string;
}

export interface ScoreResult {
  score: number;
  breakdown: CriterionScore[];
  must_have_missing: string[];
  excluded: boolean;
}

export const MUST_HAVE_CAP = 40;

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const lower = (s: string) => s.toLowerCase();
const round2 = (n: number) => Math.round(n * 100) / 100;
/** Rounds after trimming float noise, so e.g. 79.99999999 and 80.00000001 both give 80. */
const roundInt = (n: number) => Math.round(Math.round(n * 1e6) / 1e6);

/** The search's weights over the defaults for its criteria; anything but a positive number counts as 0. */
export function effectiveWeights(weights: Partial<ScoringWeights> | null | undefined, criteria?: ResolvedCriteria): ScoringWeights {
  const out = { ...defaultWeightsFor(criteria) };
  for (const s of SIGNALS) {
    const w = weights?.[s.name];
    if (w !== undefined) out[s.name] = typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : 0;
  }
  return out;
}

export function scoreProfile(
  profile: PersonProfile,
  criteria: ResolvedCriteria,
  weights?: Partial<ScoringWeights> | null,
  calibration?: Calibration | null,
): ScoreResult {
  const w = calibratedWeights(effectiveWeights(weights, criteria), calibration);
  const personSkills = new Set((Array.isArray(profile.skills) ? profile.skills : []).map((s) => lower(str(s))));
  const mustHaveMissing = (criteria.must_have_skills ?? []).filter((s) => !personSkills.has(lower(s)));
  const company = lower(str(profile.company) || (experienceOf(profile)[0]?.company ?? ''));
  const excluded = company !== '' && (criteria.exclude_companies ?? []).some((x) => lower(x.trim()) === company);

  const counted = SIGNALS.filter((s) => w[s.name] > 0 && s.applies(criteria)).map((s) => ({ signal: s, ...s.score(profile, criteria) }));
  const criteriaWeight = counted.reduce((sum, c) => sum + w[c.signal.name], 0);
  const line = criteriaWeight > 0 ? calibrationLine(profile, calibration) : null;
  // The line's weight makes it `share` of the total.
  const lineWeight = line ? (criteriaWeight * calibration!.share) / (1 - calibration!.share) : 0;
  const totalWeight = criteriaWeight + lineWeight;
  const breakdown: CriterionScore[] = counted.map((c) => ({
    criterion: c.signal.name,
    weight: w[c.signal.name],
    match: round2(Math.min(1, Math.max(0, c.match))),
    points: roundInt((100 * w[c.signal.name] * c.match) / totalWeight),
    reason: c.reason,
  }));
  if (line)
    breakdown.push({
      criterion: 'calibration',
      weight: round2(lineWeight),
      match: round2(line.match),
      points: roundInt((100 * lineWeight * line.match) / totalWeight),
      reason: line.reason,
    });

  const sum = counted.reduce((s, c) => s + w[c.signal.name] * c.match, 0) + lineWeight * (line?.match ?? 0);
  let score = totalWeight > 0 ? roundInt((100 * sum) / totalWeight) : 0;
  score = Math.min(100, Math.max(0, score));
  if (mustHaveMissing.length > 0) score = Math.min(score, MUST_HAVE_CAP);
  if (excluded) score = 0;
  return { score, breakdown, must_have_missing: mustHaveMissing, excluded };
}
