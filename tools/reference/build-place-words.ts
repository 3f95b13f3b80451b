// Builds src/reference/data/gazetteer/ambiguous-names.tsv: gazetteer names that are also everyday English words
// ("Reading", "Mobile", "Surprise", "Split") or given names ("Florence", "Jordan", "Tyler"). The brief reader
// takes such a name for a place only with evidence ("in Reading", "Mobile, AL", a line of its own), so
// "reading comprehension" or "reporting to Jordan" is no place.
//
// Inputs: the English word lists of Debian's wamerican and wbritish packages (SCOWL; `apt-get install wamerican
// wbritish`, which puts them in /usr/share/dict) and the corpus's given names (src/corpus/data/name-cultures.json).
// A word counts when a list has it in lower case (proper nouns are listed capitalised there).
//
//   node --import tsx tools/reference/build-place-words.ts [--dict /usr/share/dict] [--out <file>]
//
// The output is sorted and the same on every run with the same lists.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gazetteer, placeKey } from '../../src/reference/gazetteer';
import { NAME_CULTURES } from '../../src/corpus/names';

const { values: args } = parseArgs({
  options: {
    dict: { type: 'string', default: '/usr/share/dict' },
    out: { type: 'string', default: path.join(__dirname, '../../src/reference/data/gazetteer/ambiguous-names.tsv') },
  },
});

const lists = ['american-english', 'british-english'].map((f) => path.join(args.dict, f));
for (const f of lists) {
  if (!existsSync(f)) throw new Error(`${f} is missing: apt-get install wamerican wbritish`);
}
const words = new Set<string>();
for (const f of lists) {
  for (const line of readFileSync(f, 'utf8').split('\n')) {
    const w = line.trim();
    // Lower-case entries only: "reading", "mobile"; "Florence" (a proper noun) is not a word here.
    if (w !== '' && w === w.toLowerCase() && !w.endsWith("'s")) words.add(placeKey(w));
  }
}
const givenNames = new Set(NAME_CULTURES.flatMap((c) => [...c.male, ...c.female]).map(placeKey));

const rows: string[] = [];
for (const key of gazetteer().names().keys()) {
  // Phrases ("long beach") are not ordinary text; single words and letter pairs are.
  if (key.includes(' ')) continue;
  const why = [words.has(key) ? 'word' : '', givenNames.has(key) ? 'given-name' : ''].filter(Boolean).join('|');
  if (why) rows.push(`${key}\t${why}`);
}
rows.sort();
writeFileSync(args.out, ['name_key\twhy', ...rows, ''].join('\n'));
console.log(`${rows.length} ambiguous names → ${path.relative(process.cwd(), args.out)}`);
