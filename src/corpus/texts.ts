/**
 * The corpus's sentences: experience and project descriptions, the "about" text and languages.
 */
import type { Rng } from './rng';
import type { PlaceCulture } from './places';
import type { RoleText } from './roles';

const VERBS = ['Owned', 'Worked on', 'Improved', 'Supported', 'Led work on', 'Drove'];
const GAINS = ['faster turnaround', 'lower costs', 'fewer incidents', 'higher customer satisfaction', 'less manual work', 'faster delivery'];
const VALUES = [
  'clear communication',
  'mentoring others',
  'work that matters to customers',
  'measurable outcomes',
  'continuous learning',
  'doing things properly',
];
const SECOND_LANGUAGES = ['Spanish', 'French', 'German', 'Mandarin', 'Japanese', 'Italian', 'Portuguese', 'Korean'];
const FOREIGN_LEVELS = ['elementary', 'conversational', 'professional'];
const ENGLISH_LEVELS = ['fluent', 'professional', 'professional', 'full professional'];

export function yearsText(years: number): string {
  return years === 1 ? '1 year' : `${years} years`;
}

export function createTexts(rng: Rng) {
  function describeWork(esi: number, text: RoleText, skills: string[]): string {
    const object = rng.pick(text.objects);
    if (esi >= 5 && rng.float() < 0.7) {
      const size = 3 + rng.int(esi >= 6 ? 40 : 10);
      return rng.float() < 0.5 ? `Led a team of ${size} responsible for ${object}.` : `Managed ${object} with a team of ${size}.`;
    }
    const s1 = skills[rng.int(skills.length)];
    switch (rng.int(3)) {
      case 0: {
        let s2 = skills[rng.int(skills.length)];
        if (s2 === s1) s2 = skills[0] === s1 ? skills[1] : skills[0];
        return `${rng.pick(VERBS)} ${object}, with a focus on ${s1} and ${s2}.`;
      }
      case 1:
        return `Responsible for ${object}; worked mainly with ${s1}.`;
      default:
        return `${rng.pick(VERBS)} ${object} using ${s1}.`;
    }
  }

  function describeProject(name: string, skills: string[]): string {
    const s1 = skills[rng.int(skills.length)];
    switch (rng.int(3)) {
      case 0: {
        let s2 = skills[rng.int(skills.length)];
        if (s2 === s1) s2 = skills[0] === s1 ? skills[1] : skills[0];
        return `Led the ${name} end to end using ${s1} and ${s2}.`;
      }
      case 1:
        return `Drove the ${name} from kickoff to launch, delivering ${10 + rng.int(50)}% ${rng.pick(GAINS)}.`;
      default:
        return `Core contributor to the ${name}, focused on ${s1}.`;
    }
  }

  function writeAbout(title: string, years: number, company: string, previous: string | undefined, city: string, text: RoleText, skills: string[]): string {
    let out: string;
    if (years === 0) out = `Early-career ${title} passionate about ${text.phrase}.`;
    else if (rng.float() < 0.5) out = `${title} with ${yearsText(years)} of experience ${text.phrase}.`;
    else out = `I have spent ${yearsText(years)} ${text.phrase}, most recently as ${title} at ${company}.`;
    switch (rng.int(3)) {
      case 0:
        out += ` My toolkit includes ${skills[0]}, ${skills[1]} and ${skills[2]}.`;
        break;
      case 1:
        out += ` Day to day I work with ${skills[0]}, ${skills[1]} and ${skills[2]}.`;
        break;
      default:
        out += ` Strong background in ${skills[0]} and ${skills[1]}.`;
    }
    if (rng.float() < 0.65) {
      out += previous && rng.float() < 0.5 ? ` Previously at ${previous}.` : ` I care about ${rng.pick(VALUES)}.`;
    }
    if (rng.float() < 0.35) {
      out += rng.float() < 0.5 ? ` Open to roles in ${city} or remote.` : ' Open to new opportunities.';
    }
    return out;
  }

  function pickLanguages(native: string, ci: number, place: PlaceCulture): string[] {
    const out: string[] = [];
    if (native === 'English') {
      out.push('English (native)');
      if (!place.englishSpeaking && rng.float() < 0.7) out.push(`${place.language} (${rng.pick(FOREIGN_LEVELS)})`);
      else if (rng.float() < 0.3) out.push(`${rng.pick(SECOND_LANGUAGES)} (${rng.pick(FOREIGN_LEVELS)})`);
      return out;
    }
    if (place.englishSpeaking && ci !== place.dominantCulture && rng.float() < 0.35) {
      // Raised in an English-speaking country, heritage language at home.
      out.push('English (native)', `${native} (${rng.float() < 0.5 ? 'native' : 'professional'})`);
      return out;
    }
    out.push(`${native} (native)`);
    if (place.englishSpeaking || rng.float() < 0.85) out.push(`English (${rng.pick(ENGLISH_LEVELS)})`);
    if (place.language !== native && place.language !== 'English' && rng.float() < 0.7) {
      out.push(`${place.language} (${rng.pick(FOREIGN_LEVELS)})`);
    }
    return out;
  }

  return { describeWork, describeProject, writeAbout, pickLanguages };
}
