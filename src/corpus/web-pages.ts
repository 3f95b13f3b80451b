/**
 * The built-in web: deterministic public pages for web search (DESIGN.md §9). Page `i` depends
 * only on (seed, i), and any prefix mixes the three kinds: every fifth page is a company page
 * (home, about, careers, then blog posts), two in five are bios of corpus people, two are news.
 */
import type { WebPageRow } from '../db/web-pages.repository';
import { COMPANY_COUNT, companyDomain, companyRecord } from './company-directory';
import { createPersonGenerator } from './generator';
import { slugify } from './names';

export const DEFAULT_WEB_PAGES = 20_000;

const BLOG_TOPICS = [
  'How we scaled our platform',
  'Lessons from a year of remote work',
  'Our approach to customer support',
  'What we learned shipping our new product',
  'Inside our engineering culture',
  'Building a sustainable supply chain',
  'Why we invest in apprenticeships',
];
const NEWS = [
  (c: string, n: number, x: string) => ({
    title: `${c} raises $${n}M Series ${x}`,
    text: `${c} announced a $${n} million Series ${x} round to grow its team and expand internationally.`,
  }),
  (c: string, _n: number, city: string) => ({
    title: `${c} opens a new office in ${city}`,
    text: `${c} is opening an office in ${city} and plans to hire across engineering, sales and operations.`,
  }),
  (c: string, n: number) => ({
    title: `${c} reports ${n}% revenue growth`,
    text: `${c} reported revenue growth of ${n} percent year over year, citing strong demand from enterprise customers.`,
  }),
  (c: string, n: number) => ({
    title: `${c} acquires a smaller rival`,
    text: `${c} has acquired a competitor with ${n} employees, adding its products and customers to its portfolio.`,
  }),
  (c: string, _n: number, city: string) => ({
    title: `${c} named a top employer in ${city}`,
    text: `${c} was named one of the best places to work in ${city} for its benefits, training and flexible hours.`,
  }),
];
const ROUNDS = ['A', 'B', 'C', 'D'];

function hash(i: number, salt: number): number {
  let h = Math.imul(i ^ 0x27d4eb2f, 0x165667b1) ^ Math.imul(salt + 7, 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca77);
  h ^= h >>> 13;
  return h >>> 0;
}

/** A date between 2019-01-01 and 2026-11-15, fixed per (i, salt). */
function dateOf(i: number, salt: number): Date {
  const from = Date.UTC(2019, 0, 1);
  const span = Date.UTC(2026, 10, 15) - from;
  return new Date(from + (hash(i, salt) % Math.floor(span / 60_000)) * 60_000);
}

const snippetOf = (body: string) => (body.length <= 220 ? body : `${body.slice(0, body.lastIndexOf(' ', 217))}…`);

export function createWebPageGenerator(seed: number) {
  const people = createPersonGenerator(seed);

  function companyPage(id: number, n: number): WebPageRow {
    const c = companyRecord(n % COMPANY_COUNT);
    const variant = Math.floor(n / COMPANY_COUNT);
    const site = `https://${companyDomain(c.name)}`;
    const base = { id, kind: 'company' as const };
    if (variant === 0) {
      const body = `${c.summary} ${c.description} Learn about our products, our team and open positions.`;
      return { ...base, url: `${site}/`, title: `${c.name} | ${c.industry} in ${c.location}`, snippet: snippetOf(body), body, published_at: null };
    }
    if (variant === 1) {
      const body = `About ${c.name}: ${c.description} Our ${c.employee_count.toLocaleString('en-US')} people work from ${c.location}.`;
      return { ...base, url: `${site}/about`, title: `About ${c.name}`, snippet: snippetOf(body), body, published_at: null };
    }
    if (variant === 2) {
      const body = `Careers at ${c.name}. We are hiring in ${c.location} for roles across ${c.industry.toLowerCase()}: engineering, sales, operations and more.`;
      return { ...base, url: `${site}/careers`, title: `Careers at ${c.name}`, snippet: snippetOf(body), body, published_at: null };
    }
    const topic = BLOG_TOPICS[hash(n, 3) % BLOG_TOPICS.length];
    const body = `${topic} at ${c.name}, a ${c.industry.toLowerCase()} company in ${c.location}. ${c.description}`;
    return {
      ...base,
      url: `${site}/blog/${slugify(topic)}-${variant - 2}`,
      title: `${topic} | ${c.name} blog`,
      snippet: snippetOf(body),
      body,
      published_at: dateOf(n, 4).toISOString(),
    };
  }

  function bioPage(id: number, n: number): WebPageRow {
    const p = people.person(n);
    const name = `${p.first_name} ${p.last_name}`;
    const body =
      `${name} is ${p.title} at ${p.company} in ${p.location.name}. ${p.about} ` +
      `Skills: ${p.skills.join(', ')}. ${p.education[0] ? `Studied ${p.education[0].field} at ${p.education[0].school}.` : ''}`;
    return {
      id,
      kind: 'bio',
      url: `https://${companyDomain(p.company)}/team/${slugify(name)}-${p.id}`,
      title: `${name} – ${p.title} at ${p.company}`,
      snippet: snippetOf(body),
      body,
      published_at: p.updated_at,
    };
  }

  function newsPage(id: number, n: number): WebPageRow {
    const c = companyRecord(hash(n, 5) % COMPANY_COUNT);
    const item = NEWS[hash(n, 6) % NEWS.length](c.name, 2 + (hash(n, 7) % 150), hash(n, 8) % 2 ? c.location.split(',')[0] : ROUNDS[hash(n, 9) % 4]);
    const at = dateOf(n, 10);
    const body = `${item.text} ${c.summary}`;
    return {
      id,
      kind: 'news',
      url: `https://news.example.org/${at.getUTCFullYear()}/${String(at.getUTCMonth() + 1).padStart(2, '0')}/${slugify(item.title)}-${n}`,
      title: item.title,
      snippet: snippetOf(body),
      body,
      published_at: at.toISOString(),
    };
  }

  return {
    page(i: number): WebPageRow {
      const round = Math.floor(i / 5);
      const k = i % 5;
      if (k === 0) return companyPage(i, round);
      if (k <= 2) return bioPage(i, round * 2 + (k - 1));
      return newsPage(i, round * 2 + (k - 3));
    },
  };
}
