import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

/**
 * The open world (DESIGN.md §4a): people get coordinates, an ISO country, their region and an
 * O*NET-SOC occupation; the gazetteer is loaded as reference data; the built-in corpus records
 * which generator wrote it, so a newer one replaces it (src/corpus/loader.ts).
 *
 * - people: `lat`, `lon` (WGS84), `country` now ISO 3166-1 alpha-2, `region_key` (country and
 *   region name, for region places), `geo_cell` (a quarter-degree cell, for the ranking's first
 *   tier), `onet_code` (NN-NNNN.NN). Indexes for the first tier: the family or occupation with the
 *   cell, the country or the region.
 * - places: every gazetteer city, region and country (id, kind, names, country, region, point,
 *   population), and place_names: every name a place is known by, normalised.
 */

const GAZETTEER = path.join(__dirname, '..', 'src', 'reference', 'data', 'gazetteer');

function readTsv(file: string): Record<string, string>[] {
  const [head, ...lines] = fs.readFileSync(path.join(GAZETTEER, file), 'utf8').split('\n');
  const header = head.split('\t');
  // Rows without a point (a few regions and dependencies) cannot be placed: left out, as the gazetteer does.
  return lines
    .filter((l) => l.trim() !== '')
    .map((l) => Object.fromEntries(l.split('\t').map((v, i) => [header[i], v])))
    .filter((r) => r.lat !== '' && r.lon !== '');
}

/** The same normalisation as src/reference/gazetteer.ts placeKey (copied: a migration keeps what it meant). */
const placeKey = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/[łŁ]/g, 'l')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('people', (t) => {
    t.double('lat').nullable();
    t.double('lon').nullable();
    t.text('region_key').notNullable().defaultTo('');
    t.integer('geo_cell').nullable();
    t.text('onet_code').nullable();
  });
  await knex.raw('drop index if exists people_family_metro_idx');
  await knex.raw('create index people_family_cell_idx on people (family, geo_cell)');
  await knex.raw('create index people_family_country_idx on people (family, country)');
  await knex.raw('create index people_family_region_idx on people (family, region_key)');
  await knex.raw('create index people_occupation_cell_idx on people (onet_code, geo_cell)');
  await knex.raw('create index people_occupation_country_idx on people (onet_code, country)');

  await knex.schema.createTable('corpus_meta', (t) => {
    t.text('key').primary();
    t.text('value').notNullable();
  });

  await knex.schema.createTable('places', (t) => {
    t.text('id').primary();
    t.text('kind').notNullable();
    t.text('name').notNullable();
    t.text('full_name').notNullable();
    t.text('country').notNullable();
    t.text('region_key').notNullable();
    t.double('lat').notNullable();
    t.double('lon').notNullable();
    t.bigInteger('population').notNullable();
  });
  await knex.schema.createTable('place_names', (t) => {
    t.text('name_key').notNullable();
    t.text('place_id').notNullable().references('places.id').onDelete('CASCADE');
    t.primary(['name_key', 'place_id']);
  });
  await knex.raw('create index place_names_place_idx on place_names (place_id)');

  const countries = readTsv('countries.tsv');
  const countryName = new Map(countries.map((c) => [c.iso2, c.name]));
  const places: Record<string, unknown>[] = [];
  const names: { name_key: string; place_id: string }[] = [];
  const seen = new Set<string>();
  const addNames = (id: string, list: string[]) => {
    for (const n of list) {
      const key = placeKey(n);
      if (key && !seen.has(`${key}|${id}`)) {
        seen.add(`${key}|${id}`);
        names.push({ name_key: key, place_id: id });
      }
    }
  };
  const split = (cell: string | undefined) => (cell ? cell.split('|').filter(Boolean) : []);
  for (const c of countries) {
    const id = `geonames:${c.geonameid}`;
    places.push({
      id,
      kind: 'country',
      name: c.name,
      full_name: c.name,
      country: c.iso2,
      region_key: '',
      lat: Number(c.lat),
      lon: Number(c.lon),
      population: Number(c.population) || 0,
    });
    addNames(id, [c.name, c.iso3, ...split(c.aliases)]);
  }
  const regionNames = new Map<string, string>();
  for (const r of readTsv('regions.tsv')) {
    const country = countryName.get(r.country);
    if (!country) continue;
    const id = r.geonameid ? `geonames:${r.geonameid}` : `admin1:${r.country}.${r.admin1}`;
    if (places.some((p) => p.id === id)) continue;
    regionNames.set(`${r.country}.${r.admin1}`, r.name);
    const regionKey = `${r.country}|${placeKey(r.name)}`;
    places.push({
      id,
      kind: 'region',
      name: r.name,
      full_name: r.name === country ? r.name : `${r.name}, ${country}`,
      country: r.country,
      region_key: regionKey,
      lat: Number(r.lat),
      lon: Number(r.lon),
      population: Number(r.population) || 0,
    });
    addNames(id, [r.name, r.ascii_name]);
  }
  for (const c of readTsv('cities.tsv')) {
    const country = countryName.get(c.country);
    if (!country) continue;
    const id = `geonames:${c.geonameid}`;
    const region = regionNames.get(`${c.country}.${c.admin1}`);
    const fullName = [c.name, ...(region && region !== c.name ? [region] : []), ...(country !== c.name ? [country] : [])].join(', ');
    places.push({
      id,
      kind: 'city',
      name: c.name,
      full_name: fullName,
      country: c.country,
      region_key: region ? `${c.country}|${placeKey(region)}` : '',
      lat: Number(c.lat),
      lon: Number(c.lon),
      population: Number(c.population) || 0,
    });
    addNames(id, [c.name, c.ascii_name, ...split(c.alternate_names)]);
  }
  for (let i = 0; i < places.length; i += 2000)
    await knex('places')
      .insert(places.slice(i, i + 2000))
      .onConflict('id')
      .ignore();
  for (let i = 0; i < names.length; i += 5000)
    await knex('place_names')
      .insert(names.slice(i, i + 5000))
      .onConflict(['name_key', 'place_id'])
      .ignore();
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('place_names');
  await knex.schema.dropTable('places');
  await knex.schema.dropTable('corpus_meta');
  for (const idx of [
    'people_family_cell_idx',
    'people_family_country_idx',
    'people_family_region_idx',
    'people_occupation_cell_idx',
    'people_occupation_country_idx',
  ]) {
    await knex.raw(`drop index if exists ${idx}`);
  }
  await knex.raw('create index people_family_metro_idx on people (family, metro)');
  await knex.schema.alterTable('people', (t) => {
    t.dropColumn('lat');
    t.dropColumn('lon');
    t.dropColumn('region_key');
    t.dropColumn('geo_cell');
    t.dropColumn('onet_code');
  });
}
