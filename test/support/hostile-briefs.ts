/**
 * Worst-case job descriptions for the brief reader: shapes that made earlier readers quadratic
 * (repeated hiring words and suffixes, long lists of commas and "or"s) and others a reader could
 * stumble on (capitalised place-like words, unicode runs, one endless word), each written out to
 * any length. Used by the hostile-brief benchmark (bench/briefs.bench.ts) and its test.
 */

/** Repeats `unit` until the text is exactly `length` characters. */
const fill = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const PLACE_LIKE = [
  'Springfield',
  'Riverside',
  'Franklin',
  'Greenville',
  'Bristol',
  'Clinton',
  'Salem',
  'Madison',
  'Georgetown',
  'Arlington',
  'Fairview',
  'Newport',
  'Ashland',
  'Burlington',
  'Manchester',
  'Milton',
  'Oxford',
  'Jackson',
  'Kingston',
  'Dover',
];

export const HOSTILE_SHAPES: Record<string, (length: number) => string> = {
  'hiring words': (n) => fill('We are hiring, looking for, seeking, need, want, recruiting a ', n),
  'repeated suffixes': (n) => fill('find ing ion ent ter ', n),
  'commas (Go, Go, …)': (n) => fill('Go, ', n),
  'or-lists of places': (n) => fill('London or Paris or Berlin or ', n),
  'or-lists of roles': (n) => fill('engineer or designer or nurse or analyst or ', n),
  'capitalised place-like words': (n) => {
    const words: string[] = [];
    for (let i = 0; words.join(' ').length < n; i++) words.push(PLACE_LIKE[(i * 7) % PLACE_LIKE.length]);
    return words.join(' ').slice(0, n);
  },
  'level words': (n) => fill('senior staff lead principal junior mid-level ', n),
  'years phrases': (n) => fill('5+ years of experience, 3-5 yrs, at least 10 years ', n),
  'unicode run': (n) => fill('é漢字🙂\u0301ß', n),
  'one endless word': (n) => fill('abcdefghij', n),
  'bullets and newlines': (n) => fill('\n- \n• Senior\n', n),
  'a real brief, repeated': (n) =>
    fill(
      'Senior Backend Engineer in Berlin or remote (Germany). We are hiring a senior backend engineer with 5+ years of Go, PostgreSQL and Kubernetes for our fintech platform. You will work closely with product managers and designers. ',
      n,
    ),
};

/** The fastest of `runs` timed runs of `work`, in ms: a shared machine's pauses do not count. */
export const bestOf = (runs: number, work: () => void): number => {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    work();
    best = Math.min(best, performance.now() - t);
  }
  return best;
};
