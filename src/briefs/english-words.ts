/**
 * Whether a word is English spelt right: the Hunspell en_US dictionary of SCOWL (npm dictionary-en,
 * MIT and BSD) read by nspell, with its affix rules (plurals, verb forms). The role reader's
 * similarity fallback reads a role from a near-miss spelling; a word spelt right is no near miss
 * ("safety barriers" is no barrister, "community controlled" no controller). A word list without
 * affixes was the other choice: the game lists on npm hold misspellings ("enginer", "programer").
 * Loaded on first use (about 0.4 s, 13 MB); warmReader loads it.
 */
import fs from 'node:fs';
import nspell from 'nspell';

let speller: ReturnType<typeof nspell> | undefined;

function load(): ReturnType<typeof nspell> {
  speller ??= nspell({
    aff: fs.readFileSync(require.resolve('dictionary-en/index.aff')),
    dic: fs.readFileSync(require.resolve('dictionary-en/index.dic')),
  });
  return speller;
}

/** Whether a lower-case word is in the English dictionary, as written or by its affix rules. */
export const isEnglishWord = (word: string): boolean => /^[a-z]+$/.test(word) && load().correct(word);
