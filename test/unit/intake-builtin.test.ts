import { withoutInvalidFields } from '../../src/intake/intake.service';

/** The built-in reader's proposal is kept field by field: what the criteria schema refuses is left out, the rest stays. */

it('keeps a valid proposal as it is', () => {
  const raw = { family: 'software_engineering', metro: 'berlin', skills: ['TypeScript'], _meta: { confidence: { family: 0.9, metro: 0.8, skills: 0.7 } } };
  expect(withoutInvalidFields(raw)).toEqual(raw);
});

it('leaves out refused list items, refused fields, unknown fields and bad confidences, and keeps the rest', () => {
  const raw = {
    metro: 'atlantis',
    skills: ['TypeScript', 'Spellcasting', 'PostgreSQL'],
    must_have_skills: ['Spellcasting'],
    years_experience: { min: 9, max: 3 },
    titles: ['Backend Engineer'],
    mode: 'live',
    _meta: { confidence: { skills: 0.8, titles: 1.7 } },
  };
  expect(withoutInvalidFields(raw)).toEqual({ skills: ['TypeScript', 'PostgreSQL'], titles: ['Backend Engineer'], _meta: { confidence: { skills: 0.8 } } });
  // The caller's proposal (rawToolInput) is not changed.
  expect(raw.skills).toHaveLength(3);
});

it('a proposal without _meta gets an empty one', () => {
  expect(withoutInvalidFields({ titles: ['Nurse'] })).toEqual({ titles: ['Nurse'], _meta: { confidence: {} } });
});
