import { z } from 'zod';
import { FEEDBACK_REASONS, VALUE_KINDS } from '../ranking/calibration';

/** Request and response schemas of the feedback routes, and the calibration a search shows. */

export const MAX_RATINGS_PER_CALL = 200;
export const NOTE_MAX_LENGTH = 1000;

export const rating = z
  .strictObject({
    candidate_id: z.uuid().describe('A person of this search (GET /searches/{searchId}/people or its records)'),
    verdict: z.enum(['good', 'bad']).describe('good: a good fit; bad: not a fit'),
    reasons: z
      .array(z.enum(FEEDBACK_REASONS))
      .max(FEEDBACK_REASONS.length * 2)
      .optional()
      .describe('What the verdict is about: those criteria count fully in what is learned, the rest half'),
    note: z.string().max(NOTE_MAX_LENGTH).nullish().describe('Free text for the team; not used for ranking'),
  })
  .meta({ id: 'Rating' });

export const feedbackBody = z
  .strictObject({
    ratings: z.array(rating).min(1).max(MAX_RATINGS_PER_CALL).describe(`1 to ${MAX_RATINGS_PER_CALL} ratings; a person rated twice keeps the last`),
  })
  .meta({ id: 'SubmitFeedback', description: 'Verdicts on people of the search' });
export type FeedbackBody = z.output<typeof feedbackBody>;

const datetime = z.iso.datetime();

export const storedRating = z
  .strictObject({
    candidate_id: z.uuid(),
    name: z.string(),
    verdict: z.enum(['good', 'bad']),
    reasons: z.array(z.enum(FEEDBACK_REASONS)),
    note: z.string().nullable(),
    rated_at: datetime.describe('When this verdict was given (a repeat of the same rating keeps it)'),
  })
  .meta({ id: 'StoredRating' });

export const feedbackAccepted = z
  .strictObject({
    search_id: z.uuid(),
    received: z.int().describe('Ratings in this call (a person rated twice counts once)'),
    changed: z.int().describe('Of those, ratings that were new or differed from the stored one'),
    ratings: z.int().describe("The search's ratings now"),
    good: z.int(),
    bad: z.int(),
    calibration_workflow_id: z.string().describe('calibration-<searchId>: learns from every rating once no new one came for a moment'),
  })
  .meta({ id: 'FeedbackAccepted' });

const learnedValue = z
  .strictObject({
    kind: z.enum(VALUE_KINDS),
    value: z.string().describe('As people read it'),
    weight: z.number().describe('Log-odds of a good rating it adds (above 0 preferred, below 0 avoided)'),
    good: z.int().describe('People rated good with it'),
    bad: z.int().describe('People rated not a fit with it'),
  })
  .meta({ id: 'LearnedValue' });

export const searchCalibration = z
  .strictObject({
    ratings: z.int().describe('Ratings learned from'),
    good: z.int(),
    bad: z.int(),
    share: z.number().min(0).max(1).describe("The calibration line's share of each score (0: the ratings changed nothing yet)"),
    weights: z.record(z.string(), z.number()).describe('Criterion weight multipliers learned (criteria not listed keep their weight)'),
    preferred: z.array(learnedValue).describe('The strongest values of people rated good, strongest first'),
    avoided: z.array(learnedValue).describe('The strongest values of people rated not a fit, strongest first'),
    updated_at: datetime,
  })
  .meta({ id: 'Calibration', description: 'What the search learned from its ratings (POST /searches/{searchId}/feedback)' });
