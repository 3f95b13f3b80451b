/**
 * How long a brief (`jd_text`, the app's `rawInput`) may be. The longest real job descriptions
 * run to about 15,000 characters (long public-sector and academic postings with their duties,
 * person specification and benefits written out); 20,000 leaves room for those and keeps a
 * worst-case read within the reader's time budget. Longer is refused with a clear 400.
 */
export const BRIEF_MAX_LENGTH = 20_000;
/** A job description shorter than this says too little to read (spec: jd_text of at least 40 characters). */
export const BRIEF_MIN_LENGTH = 40;

export const briefTooLong = (field: string) =>
  `${field} is too long: at most ${BRIEF_MAX_LENGTH.toLocaleString('en-US')} characters (the longest real job descriptions are about 15,000); shorten it or send criteria`;
