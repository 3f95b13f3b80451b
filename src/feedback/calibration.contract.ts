/**
 * What the API, the calibration workflow and its activity share (DESIGN.md §13). Pure: workflow
 * code imports it.
 */

/** Sent with every feedback call (signal-with-start of `calibration-<searchId>`). */
export const FEEDBACK_SIGNAL = 'feedback';

export interface CalibrationInput {
  searchId: string;
  /** How long no new rating must come before the workflow learns (CALIBRATION_QUIET_SECONDS). */
  quietSeconds: number;
}

/**
 * One calibration attempt: `busy` while a pass of the search runs (tried again later), `skipped`
 * when there is nothing to calibrate, `unchanged` when the ratings are those already learned from,
 * `calibrated` with the pass it booked to read on (null: none, e.g. a live search).
 */
export type CalibrationOutcome =
  { state: 'busy' } | { state: 'skipped'; reason: string } | { state: 'unchanged' } | { state: 'calibrated'; ratings: number; pass: number | null };
