import { placeNameCandidates } from '../../web/src/place-names';

/** The app names the places a reader gave as ids by looking up the brief's words (web/src/place-names.ts). */
describe('placeNameCandidates', () => {
  it('puts capitalised runs after a place cue first, then other runs, their words, then lower-case words', () => {
    expect(placeNameCandidates('Community pharmacist in Bavaria, 3+ years of experience')).toEqual([
      'Bavaria',
      'Community',
      'pharmacist',
      'years',
      'experience',
    ]);
  });

  it('keeps names of several words and accents, splits lists, and never starts inside a word', () => {
    const found = placeNameCandidates('Senior Nurse — São Paulo or Rio de Janeiro/Curitiba. Remote OK.');
    expect(found.slice(0, 3)).toEqual(['São Paulo', 'Rio', 'Curitiba']);
    expect(found).toEqual(expect.arrayContaining(['Senior Nurse', 'Janeiro', 'Senior', 'Nurse', 'Remote', 'OK']));
    expect(found.some((w) => /^(?:ão|aulo|enior|urse)/.test(w))).toBe(false);
  });

  it('lists each candidate once, whatever its case, without trailing punctuation', () => {
    expect(placeNameCandidates('Based in NYC. nyc preferred; NYC.')).toEqual(['NYC', 'Based', 'preferred']);
  });
});
