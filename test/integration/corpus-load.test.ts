import pg from 'pg';
import { createPersonGenerator } from '../../src/corpus/generator';
import { loadCorpus, loadWebPages, personRow, type LoadProgress } from '../../src/corpus/loader';
import { createWebPageGenerator } from '../../src/corpus/web-pages';
import { createDb, type Db } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { peopleBulkRepository, peopleCopyLine, profileCopyLine } from '../../src/db/people-bulk.repository';
import type { PersonRow } from '../../src/db/people.repository';

/**
 * The COPY corpus loader on a database of its own (created in the suite's Postgres), so loading
 * people here never changes what the other tests' searches find.
 */
const name = `corpus_load_${process.pid}_${Date.now()}`;
const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
let db: Db;

beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  db = createDb(url.toString(), 4);
  await migrateLatest(db);
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

const indexes = async () => (await db.raw(`select indexname, indexdef from pg_indexes where tablename = 'people' order by indexname`)).rows;

it('loads the seeded people and profiles exactly as generated, reports progress, and a re-run adds nothing', async () => {
  const progress: LoadProgress[] = [];
  expect(await loadCorpus(db, { size: 12_345, seed: 3, pages: 0, onProgress: (p) => progress.push(p) })).toEqual({ inserted: 12_345, pages: 0 });
  expect(progress.map((p) => p.loaded)).toEqual([10_000, 12_345]);
  expect(progress.every((p) => p.total === 12_345 && p.perSecond > 0)).toBe(true);

  const generator = createPersonGenerator(3);
  for (const i of [0, 1, 4_321, 12_344]) {
    const person = generator.person(i);
    const row = await db('people').where({ id: person.id }).first();
    const { search_vector: _vector, ...columns } = row;
    expect({ ...columns, updated_at: (columns.updated_at as Date).toISOString() }).toEqual({
      ...personRow(person),
      updated_at: new Date(person.updated_at).toISOString(),
    });
    expect((await db('people_profiles').where({ id: person.id }).first()).profile).toEqual(person);
  }

  // Same seed again: nothing new; a larger size adds only the rest.
  expect(await loadCorpus(db, { size: 12_345, seed: 3, pages: 0 })).toEqual({ inserted: 0, pages: 0 });
  expect(await loadCorpus(db, { size: 13_000, seed: 3, pages: 0 })).toEqual({ inserted: 655, pages: 0 });
  expect(await db('people').count({ n: '*' })).toEqual([{ n: 13_000 }]);
  expect(await db('people_profiles').count({ n: '*' })).toEqual([{ n: 13_000 }]);
}, 120_000);

it('keeps tabs, newlines, backslashes, quotes and commas intact through COPY', async () => {
  const nasty = 'tab\there, new\nline\r, back\\slash \\N "quoted", {braced}';
  const row: PersonRow = {
    ...personRow(createPersonGenerator(9).person(0)),
    id: 'copy-escape-1',
    first_name: nasty,
    summary: nasty,
    skills: [nasty, 'C++', 'a,b', ''],
    skills_text: nasty,
  };
  const profile = { id: row.id, note: nasty, nested: { list: [nasty] } };
  await peopleBulkRepository(db).load({ rebuildIndexes: false }, (loader) =>
    loader.copy([peopleCopyLine(row)], [profileCopyLine(row.id, JSON.stringify(profile))]),
  );
  const back = await db('people').where({ id: row.id }).first();
  expect([back.first_name, back.summary, back.skills, back.skills_text]).toEqual([nasty, nasty, [nasty, 'C++', 'a,b', ''], nasty]);
  expect((await db('people_profiles').where({ id: row.id }).first()).profile).toEqual(profile);
});

it('a big load drops and rebuilds the secondary indexes in its transaction; a failed one leaves them and no rows', async () => {
  const before = await indexes();
  expect(before.length).toBeGreaterThan(1);
  const count = async () => Number((await db('people').count({ n: '*' }))[0].n);
  const rows = await count();
  const person = createPersonGenerator(9).person(1);
  const line = peopleCopyLine({ ...personRow(person), id: 'rebuild-1' });
  const profile = profileCopyLine('rebuild-1', JSON.stringify(person));

  await expect(
    peopleBulkRepository(db).load({ rebuildIndexes: true }, async (loader) => {
      await loader.copy([line], [profile]);
      throw new Error('the load died half way');
    }),
  ).rejects.toThrow('the load died half way');
  expect(await indexes()).toEqual(before);
  expect(await count()).toBe(rows);

  await peopleBulkRepository(db).load({ rebuildIndexes: true }, (loader) => loader.copy([line], [profile]));
  expect(await indexes()).toEqual(before);
  expect(await count()).toBe(rows + 1);
});

it('copies the built-in web pages exactly as generated, with progress and their indexes; a re-run adds nothing', async () => {
  await db('web_pages').del();
  const webIndexes = async () => (await db.raw(`select indexname, indexdef from pg_indexes where tablename = 'web_pages' order by indexname`)).rows;
  const before = await webIndexes();
  const progress: LoadProgress[] = [];
  expect(await loadWebPages(db, { size: 12_345, seed: 3, onProgress: (p) => progress.push(p) })).toBe(12_345);
  expect(progress.map((p) => p.loaded)).toEqual([10_000, 12_345]);
  expect(await webIndexes()).toEqual(before);
  const generator = createWebPageGenerator(3);
  for (const i of [0, 1, 3, 5, 12_344]) {
    const { search_vector: _vector, ...row } = await db('web_pages').where({ id: i }).first();
    const page = generator.page(i);
    expect({ ...row, id: Number(row.id), published_at: row.published_at && (row.published_at as Date).toISOString() }).toEqual({
      ...page,
      published_at: page.published_at && new Date(page.published_at).toISOString(),
    });
  }
  expect(await loadWebPages(db, { size: 12_345, seed: 3 })).toBe(0);
  expect(await loadWebPages(db, { size: 13_000, seed: 3 })).toBe(655);
  expect(await db('web_pages').count({ n: '*' })).toEqual([{ n: 13_000 }]);
});
