/**
 * The built-in company source: the corpus's fictional companies (./companies.ts) with the details
 * a company read shows (site, headquarters, size, founding year, description). Derived from the
 * company's index only, so the directory is the same on every run and machine.
 */
import { METROS } from '../reference/taxonomy';
import { COMPANIES } from './companies';
import { slugify } from './names';

export interface CompanyRecord {
  id: string;
  name: string;
  industry: string;
  website: string;
  metro: string;
  country: string;
  location: string;
  size: string;
  employee_count: number;
  founded: number;
  summary: string;
  description: string;
  tags: string[];
}

/** PDL's size buckets, so built-in and vendor answers read alike. */
const SIZES: [string, number, number][] = [
  ['1-10', 1, 10],
  ['11-50', 11, 50],
  ['51-200', 51, 200],
  ['201-500', 201, 500],
  ['501-1000', 501, 1000],
  ['1001-5000', 1001, 5000],
  ['5001-10000', 5001, 10000],
  ['10001+', 10001, 60000],
];

/** A small integer hash of (index, salt): stable, well spread. */
function hash(index: number, salt: number): number {
  let h = Math.imul(index ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

export const companyId = (index: number) => `c${String(index).padStart(5, '0')}`;

/** The company's site domain, e.g. `bluepeak-ai.example.com` (reserved names: nothing real). */
export const companyDomain = (name: string) => `${slugify(name)}.example.com`;

export function companyRecord(index: number): CompanyRecord {
  const { name, industry } = COMPANIES[index];
  const metro = METROS[hash(index, 1) % METROS.length];
  const [size, min, max] = SIZES[hash(index, 2) % SIZES.length];
  const employees = min + (hash(index, 3) % (max - min + 1));
  const founded = 1950 + (hash(index, 4) % 75);
  const city = `${metro.city}, ${metro.country}`;
  const words = industry.toLowerCase();
  return {
    id: companyId(index),
    name,
    industry,
    website: `https://${companyDomain(name)}`,
    metro: metro.id,
    country: metro.country,
    location: city,
    size,
    employee_count: employees,
    founded,
    summary: `${name} is a ${words} company headquartered in ${city}, founded in ${founded}.`,
    description:
      `${name} works in ${words} from its headquarters in ${city}. ` +
      `Founded in ${founded}, it employs about ${employees.toLocaleString('en-US')} people ` +
      `and serves customers across ${metro.country} and abroad.`,
    tags: [words, metro.city.toLowerCase(), size === '1-10' || size === '11-50' ? 'startup' : 'established'],
  };
}

export const COMPANY_COUNT = COMPANIES.length;

let sizesByName: Map<string, string> | undefined;

/**
 * The size bucket of a built-in company by name (case-insensitive), null for a company the
 * directory does not hold (a live source's). Profiles name their company only; calibration
 * learns size preferences from this.
 */
export function companySizeOf(name: string): string | null {
  if (!sizesByName) {
    sizesByName = new Map();
    for (let i = 0; i < COMPANY_COUNT; i++) sizesByName.set(COMPANIES[i].name.toLowerCase(), companyRecord(i).size);
  }
  return sizesByName.get(name.trim().toLowerCase()) ?? null;
}
