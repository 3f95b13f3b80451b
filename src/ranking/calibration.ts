/**
 * Calibration (DESIGN.md §13): what a search learns from its ratings, and how that moves scores.
 *
 * The model in one paragraph. A small logistic regression of "rated good" over each rated
 * person's values (title, occupation, place, seniority, industry, company, company size: 1 when
 * they have it, ½ for kinds a rating's reasons leave out) and criterion matches (match − ½), with
 * a Gaussian prior N(0, 1) on every weight (a weak one on the intercept, which takes the share of
 * good ratings and whatever all rated people have alike), fitted to its most probable weights by
 * coordinate-wise Newton steps. The prior is what keeps it stable: a value seen once moves a
 * little, a value rated the same way again and again moves a lot, and a value rated good as often
 * as the ratings overall stays near 0. A criterion's weight is multiplied by e^w (bounded to ½–2);
 * the values' weights add up, per person, to z, and the score gains a calibration line matching
 * σ(z) (½ for someone like nobody rated). That line's share of the score is at most 60 %, times
 * how well the values learned predict ratings they were not learned from (cross-validated; 0
 * when no better than chance), averaged with a prior guess of 0.1 worth 5 ratings: a few ratings
 * give it a little weight, consistent ones a lot, contradicting or random ones next to none, so
 * they change scores by a point at most. Pure and
 * deterministic; each search learns from its own ratings only.
 */
import { companySizeOf } from '../corpus/company-directory';
import type { ResolvedCriteria } from '../domain/criteria';
import type { PersonProfile } from '../domain/profile';
import { occupations } from '../reference/occupations';
import { experienceOf, SIGNALS, type ScoringWeights, type SignalName } from './signals';

/** The criteria a rating may name as its reasons. */
export const FEEDBACK_REASONS = ['title', 'occupation', 'location', 'seniority', 'years', 'skills', 'industry', 'company'] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number];
export type Verdict = 'good' | 'bad';

/** The kinds of value calibration learns preferences for. */
export const VALUE_KINDS = ['title', 'occupation', 'place', 'seniority', 'industry', 'company', 'company_size'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

/** The values each reason is about (years and skills only through their criterion's weight). */
const REASON_KINDS: Record<FeedbackReason, readonly ValueKind[]> = {
  title: ['title'],
  occupation: ['occupation'],
  location: ['place'],
  seniority: ['seniority'],
  years: [],
  skills: [],
  industry: ['industry'],
  company: ['company', 'company_size'],
};

/** The prior's variance on each weight (log-odds). */
const PRIOR_VARIANCE = 1;
/** The intercept's: weak, so it takes up what all rated people share (it stays finite when all ratings agree). */
const INTERCEPT_VARIANCE = 9;
const INTERCEPT = '';
/** The calibration line's largest share of a score. */
export const MAX_SHARE = 0.6;
/** Folds of the cross-validation that measures how sure the model is (heldOutCertainty). */
const FOLDS = 5;
const LEAVE_ONE_OUT_UP_TO = 40;
/** Before the ratings say how sure to be: this certainty, worth this many ratings. */
const PRIOR_CERTAINTY = 0.1;
const PRIOR_RATINGS = 5;
const MULTIPLIER_BOUNDS = [0.5, 2] as const;
/** Weights smaller than this are not kept (they move no score by a point). */
const KEPT = 0.02;
/** Most values a calibration keeps, strongest first. */
const MAX_VALUES = 300;
/** A value named in a reason needs at least this weight. */
const NAMED = 0.05;

export interface LearnedValue {
  kind: ValueKind;
  /** Lower-case key. */
  value: string;
  /** As people read it: "Financial Services", "Oakland", "11-50 employees". */
  label: string;
  /** Log-odds weight: above 0 preferred, below 0 avoided. */
  weight: number;
  /** Rated people with this value, by verdict. */
  good: number;
  bad: number;
}

/** What a search learned (stored on the search; `searches.calibration`). */
export interface Calibration {
  ratings: number;
  good: number;
  bad: number;
  /** The calibration line's share of each score, 0 to MAX_SHARE. */
  share: number;
  /** Criterion weight multipliers; a criterion not listed keeps its weight. */
  multipliers: Partial<Record<SignalName, number>>;
  /** Learned values, strongest first. */
  values: LearnedValue[];
  updated_at: string;
}

export interface RatedPerson {
  verdict: Verdict;
  reasons: readonly FeedbackReason[];
  /** The profile scored, or what the result page showed of someone not read. */
  profile: PersonProfile;
}

interface Value {
  kind: ValueKind;
  value: string;
  label: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

/** A person's values, one per kind at most (a missing or malformed field gives none). */
export function valuesOf(profile: PersonProfile): Value[] {
  const out: Value[] = [];
  const add = (kind: ValueKind, label: string) => {
    if (label !== '') out.push({ kind, value: label.toLowerCase(), label });
  };
  add('title', str(profile.title));
  const occupation = (profile as { occupation?: { onet_code?: unknown } | null }).occupation;
  const code = str(occupation?.onet_code);
  if (code) out.push({ kind: 'occupation', value: code, label: occupations().byCode(code)?.title ?? code });
  const location: unknown = (profile as { location?: unknown }).location;
  const place = typeof location === 'string' ? location.trim() : str((location as { name?: unknown } | null)?.name);
  if (place) out.push({ kind: 'place', value: place.toLowerCase(), label: place.split(',')[0].trim() });
  add('seniority', str(profile.seniority));
  add('industry', str(profile.industry) || (experienceOf(profile)[0]?.industry ?? ''));
  const company = str(profile.company) || (experienceOf(profile)[0]?.company ?? '');
  add('company', company);
  const size = company ? companySizeOf(company) : null;
  if (size) out.push({ kind: 'company_size', value: size, label: `${size} employees` });
  return out;
}

const valueKey = (v: Pick<Value, 'kind' | 'value'>) => `${v.kind}:${v.value}`;

/** The signals a search counts under its weights: their matches are the criterion features. */
const countedSignals = (criteria: ResolvedCriteria, weights: ScoringWeights) => SIGNALS.filter((s) => weights[s.name] > 0 && s.applies(criteria));

/**
 * Most probable weights of a logistic regression with the prior N(0, PRIOR_VARIANCE) on each weight
 * and a weak one on the intercept, by cyclic coordinate-wise Newton steps (the objective is
 * strictly convex). Features are visited in key order, so the fit is deterministic.
 */
function fit(rows: { good: boolean; x: Map<string, number> }[]): Map<string, number> {
  // What every rated person has alike tells nothing about the preference: left to the intercept.
  const alike = (k: string) => rows.every((r) => r.x.get(k) === rows[0].x.get(k));
  const keys = [INTERCEPT, ...[...new Set(rows.flatMap((r) => [...r.x.keys()]))].filter((k) => !alike(k)).sort()];
  const columns = new Map<string, { row: number; x: number }[]>(keys.map((k) => [k, []]));
  rows.forEach((r, row) => {
    columns.get(INTERCEPT)!.push({ row, x: 1 });
    r.x.forEach((x, k) => columns.get(k)?.push({ row, x }));
  });
  const eta = rows.map(() => 0);
  const theta = new Map<string, number>(keys.map((k) => [k, 0]));
  for (let sweep = 0; sweep < 200; sweep++) {
    let moved = 0;
    for (const k of keys) {
      const t = theta.get(k)!;
      const variance = k === INTERCEPT ? INTERCEPT_VARIANCE : PRIOR_VARIANCE;
      let gradient = -t / variance;
      let curvature = 1 / variance;
      for (const { row, x } of columns.get(k)!) {
        const p = sigmoid(eta[row]);
        gradient += x * (Number(rows[row].good) - p);
        curvature += x * x * p * (1 - p);
      }
      // A bounded step: Newton's can overshoot where the curvature changes fast.
      const step = Math.max(-1, Math.min(1, gradient / curvature));
      if (step === 0) continue;
      theta.set(k, t + step);
      for (const { row, x } of columns.get(k)!) eta[row] += step * x;
      moved = Math.max(moved, Math.abs(step));
    }
    if (moved < 1e-7) break;
  }
  return theta;
}

/** Learns from every rating of a search (the latest verdict per person); `weights` are the search's effective ones. */
export function learnCalibration(rated: readonly RatedPerson[], criteria: ResolvedCriteria, weights: ScoringWeights, now: Date): Calibration {
  const signals = countedSignals(criteria, weights);
  const counts = new Map<string, Value & { good: number; bad: number }>();
  const rows = rated.map((r) => {
    const x = new Map<string, number>();
    const named = new Set(r.reasons.flatMap((reason) => REASON_KINDS[reason]));
    for (const v of valuesOf(r.profile)) {
      // What the rating says it is about counts fully, the rest half.
      x.set(valueKey(v), r.reasons.length === 0 || named.has(v.kind) ? 1 : 0.5);
      const c = counts.get(valueKey(v)) ?? { ...v, good: 0, bad: 0 };
      c[r.verdict] += 1;
      counts.set(valueKey(v), c);
    }
    for (const s of signals) x.set(`criterion:${s.name}`, Math.min(1, Math.max(0, s.score(r.profile, criteria).match)) - 0.5);
    return { good: r.verdict === 'good', x };
  });
  const good = rows.filter((r) => r.good).length;
  const theta = rows.length ? fit(rows) : new Map<string, number>();

  const values: LearnedValue[] = [...counts.entries()]
    .map(([key, c]) => ({ kind: c.kind, value: c.value, label: c.label, weight: round(theta.get(key) ?? 0, 3), good: c.good, bad: c.bad }))
    .filter((v) => Math.abs(v.weight) >= KEPT)
    .sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight) || (a.kind + a.value < b.kind + b.value ? -1 : 1))
    .slice(0, MAX_VALUES);
  const multipliers: Partial<Record<SignalName, number>> = {};
  for (const s of signals) {
    const m = round(Math.min(MULTIPLIER_BOUNDS[1], Math.max(MULTIPLIER_BOUNDS[0], Math.exp(theta.get(`criterion:${s.name}`) ?? 0))), 2);
    if (m !== 1) multipliers[s.name] = m;
  }
  // The held-out certainty, starting from a modest prior guess while there are few ratings.
  const certainty = (rows.length * heldOutCertainty(rows) + PRIOR_RATINGS * PRIOR_CERTAINTY) / (rows.length + PRIOR_RATINGS);
  const share = rows.length ? round(MAX_SHARE * certainty, 3) : 0;
  return { ratings: rated.length, good, bad: rated.length - good, share, multipliers, values, updated_at: now.toISOString() };
}

/**
 * How well the values learned predict ratings they were not learned from: each fold of a 5-fold
 * cross-validation is predicted by a fit to the others (tanh of its values' z, signed by its
 * verdict), averaged; 0 when that is no better than chance. A value one person has fits their
 * verdict whatever it is, so a fit to all ratings would look sure of random ones.
 */
function heldOutCertainty(rows: { good: boolean; x: Map<string, number> }[]): number {
  // Leave-one-out while it is cheap, else a fixed scramble of the rows into folds (so an order in
  // the rows cannot line up with them).
  const folds = rows.length <= LEAVE_ONE_OUT_UP_TO ? rows.length : FOLDS;
  if (folds < 2) return 0;
  const foldOf = rows.map((_, i) => (folds === rows.length ? i : (Math.imul(i + 1, 2654435761) >>> 7) % folds));
  let sum = 0;
  for (let k = 0; k < folds; k++) {
    const theta = fit(rows.filter((_, i) => foldOf[i] !== k));
    rows.forEach((r, i) => {
      if (foldOf[i] !== k) return;
      let z = 0;
      for (const key of r.x.keys()) if (!key.startsWith('criterion:')) z += theta.get(key) ?? 0;
      sum += (r.good ? 1 : -1) * Math.tanh(z);
    });
  }
  return Math.max(0, sum / rows.length);
}

const lookups = new WeakMap<Calibration, Map<string, LearnedValue>>();
function lookup(c: Calibration): Map<string, LearnedValue> {
  let map = lookups.get(c);
  if (!map) lookups.set(c, (map = new Map(c.values.map((v) => [valueKey(v), v]))));
  return map;
}

/** The search's weights with the learned multipliers applied. */
export function calibratedWeights(weights: ScoringWeights, calibration: Calibration | null | undefined): ScoringWeights {
  if (!calibration) return weights;
  const out = { ...weights };
  for (const [name, m] of Object.entries(calibration.multipliers) as [SignalName, number][]) out[name] = round(out[name] * m, 4);
  return out;
}

const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;
const LABELS = (vs: LearnedValue[]) => vs.map((v) => (v.kind === 'title' ? `${v.label} titles` : v.label)).join(', ');

/**
 * A person's calibration line: the match σ(z) and why, e.g. "like 3 people you rated good:
 * Financial Services, Senior Software Engineer titles". Null without a calibration.
 */
export function calibrationLine(profile: PersonProfile, calibration: Calibration | null | undefined): { match: number; reason: string } | null {
  if (!calibration) return null;
  const learned = lookup(calibration);
  const mine = valuesOf(profile)
    .map((v) => learned.get(valueKey(v)))
    .filter((v): v is LearnedValue => v !== undefined);
  const z = mine.reduce((sum, v) => sum + v.weight, 0);
  const liked = mine
    .filter((v) => v.weight >= NAMED && v.good > 0)
    .sort((a, b) => b.weight - a.weight)
    .slice(0, 3);
  const disliked = mine
    .filter((v) => v.weight <= -NAMED && v.bad > 0)
    .sort((a, b) => a.weight - b.weight)
    .slice(0, 3);
  const parts: string[] = [];
  // Counted for the strongest value, which leads the list.
  if (liked.length) parts.push(`like ${people(liked[0].good)} you rated good: ${LABELS(liked)}`);
  if (disliked.length) parts.push(`like ${people(disliked[0].bad)} you rated not a fit: ${LABELS(disliked)}`);
  if (z < 0) parts.reverse();
  if (!parts.length) parts.push(mine.length ? 'as many good as not-a-fit ratings for what they share with people you rated' : 'unlike anyone you rated');
  const reweighted = Object.entries(calibration.multipliers).map(([name, m]) => `${name} ×${m}`);
  if (reweighted.length) parts.push(`weights from your ratings: ${reweighted.join(', ')}`);
  return { match: sigmoid(z), reason: parts.join('; ') };
}
