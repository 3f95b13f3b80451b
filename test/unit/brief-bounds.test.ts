import { BRIEF_MAX_LENGTH } from '../../src/briefs/brief-limits';
import { extractCriteria } from '../../src/briefs/reader';
import { bestOf, HOSTILE_SHAPES } from '../support/hostile-briefs';

/**
 * The brief reader stays linear on worst-case shapes at the maximum length. Timed generously for
 * a shared CI machine (the benchmark, bench/briefs.bench.ts, holds the real bound of 200 ms per
 * read); a reader that is quadratic again takes seconds here (one shape took 11 s before).
 */

beforeAll(() => {
  extractCriteria('Warm-up: senior backend engineer in London, 5 years of Go');
});

describe.each(Object.entries(HOSTILE_SHAPES))('%s', (_shape, make) => {
  it(`is read within 1 s at ${BRIEF_MAX_LENGTH.toLocaleString('en-US')} characters`, () => {
    const text = make(BRIEF_MAX_LENGTH);
    expect(text).toHaveLength(BRIEF_MAX_LENGTH);
    expect(bestOf(2, () => extractCriteria(text))).toBeLessThan(1_000);
  });

  it('grows no faster than linearly: four times the text takes well under sixteen times as long', () => {
    const quarter = bestOf(3, () => extractCriteria(make(BRIEF_MAX_LENGTH / 4)));
    const whole = bestOf(3, () => extractCriteria(make(BRIEF_MAX_LENGTH)));
    // Linear is 4×; a few ms of fixed cost and a noisy machine are allowed for, a quadratic 16× is not.
    expect(whole).toBeLessThan(8 * quarter + 40);
  });
});
