/**
 * A fixed list of a few thousand fictional companies, each with one reference industry.
 * Built at module load from word parts (data/company-names.json) with a fixed seed, so it is
 * identical on every run.
 */
import companyNameData from './data/company-names.json';
import { INDUSTRIES } from '../reference/taxonomy';
import { mulberry32 } from './rng';

export interface Company {
  name: string;
  industry: string;
}

const NAMES = companyNameData;
/** Name endings per industry; '' means the brand alone ("Bluepeak"). */
const SUFFIXES: Record<string, string[]> = NAMES.suffixes;
/** Industries whose firms are usually named after partners ("Harrington & Cole LLP"). */
const PARTNER_FIRMS = new Set(NAMES.partner_firm_industries);
/** Extra companies on top of the base count, so common industries have deep pools. */
const EXTRA_COMPANIES: Record<string, number> = NAMES.extra_companies;
const { base_companies: BASE_COMPANIES, brand_heads: BRAND_HEADS, brand_tails: BRAND_TAILS, coined: COINED, firm_surnames: FIRM_SURNAMES } = NAMES;

function buildCompanies(): Company[] {
  const rnd = mulberry32(0x5eed_c0de);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const brand = (): string => {
    if (rnd() < 0.25) return pick(COINED);
    const head = pick(BRAND_HEADS);
    let tail = pick(BRAND_TAILS);
    if (tail === head.toLowerCase()) tail = 'field';
    return head + tail;
  };
  const used = new Set<string>();
  const out: Company[] = [];
  for (const industry of INDUSTRIES) {
    const suffixes = SUFFIXES[industry] ?? ['Group', 'Holdings'];
    const want = BASE_COMPANIES + (EXTRA_COMPANIES[industry] ?? 0);
    const firm = PARTNER_FIRMS.has(industry);
    let made = 0;
    for (let attempt = 0; made < want && attempt < want * 50; attempt++) {
      const suffix = pick(suffixes);
      let name: string;
      if (firm && rnd() < 0.55) {
        const a = pick(FIRM_SURNAMES);
        let b = pick(FIRM_SURNAMES);
        if (b === a) b = 'Reed';
        if (suffix === '& Co.') name = `${a} & Co.`;
        else name = rnd() < 0.5 ? `${a} & ${b}${suffix === 'LLP' ? ' LLP' : ''}` : `${a} ${suffix}`;
      } else {
        const b = brand();
        name = suffix === '' ? b : suffix === '& Co.' ? `${b} & Co.` : `${b} ${suffix}`;
      }
      const key = name.toLowerCase();
      if (used.has(key)) continue;
      used.add(key);
      out.push({ name, industry });
      made++;
    }
  }
  return out;
}

export const COMPANIES: readonly Company[] = buildCompanies();

/** Indices into COMPANIES by industry name. */
export const COMPANIES_BY_INDUSTRY: ReadonlyMap<string, readonly number[]> = (() => {
  const m = new Map<string, number[]>();
  COMPANIES.forEach((c, i) => {
    const list = m.get(c.industry);
    if (list) list.push(i);
    else m.set(c.industry, [i]);
  });
  return m;
})();
