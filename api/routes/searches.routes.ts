import { z } from 'zod';
import { searchRepository } from '../../src/db/search.repository';
import { csvLine } from '../../src/domain/csv';
import { notFound } from '../../src/domain/errors';
import { projectParams } from '../../src/projects/projects.schemas';
import { launchSearch } from '../../src/searches/launch.service';
import { RECORD_COLUMNS, recordResource } from '../../src/searches/records';
import { listedSearch, personJson, searchResource } from '../../src/searches/searches.presenter';
import {
  LAUNCH_ERRORS,
  LAUNCH_INVALID_CODES,
  launchBody,
  launchedSearch,
  launchHeaders,
  launchInvalidCode,
  peoplePage,
  peopleQuery,
  search,
  searchListItem,
  searchParams,
  searchRecord,
} from '../../src/searches/searches.schemas';
import { startPass } from '../../src/searches/start.service';
import { authOf, briefReaderOf } from '../context';
import { peoplePageBody } from '../people-page-cache';
import { loadProject, loadSearch } from '../resource-loaders';
import { sendData, sendDataStream, sendEncodedData } from '../respond';
import { defineRoute } from '../route-def';

export const searchRoutes = [
  defineRoute({
    name: 'launch_search',
    method: 'POST',
    path: '/projects/{projectId}/searches',
    auth: 'searches:write',
    cost: 'shortlist_credit',
    costLine: 'Uses 1 shortlist credit; an idempotent replay (same Idempotency-Key, project and body) uses none.',
    summary: 'Launch a search with criteria or a job description; requires an Idempotency-Key header.',
    tag: 'Searches',
    proposable: true,
    params: projectParams,
    load: loadProject,
    headers: launchHeaders,
    body: launchBody,
    invalidCode: launchInvalidCode,
    invalidCodes: LAUNCH_INVALID_CODES,
    errors: LAUNCH_ERRORS,
    example: { criteria: { family: 'software_engineering', skills: ['TypeScript', 'PostgreSQL'], metro: 'san-francisco-bay-area', target: 25 } },
    response: {
      kind: 'json',
      status: [201, 200],
      data: launchedSearch,
      description: 'The new search (201), or the first one for an idempotent replay (200, reused: true)',
    },
    async handler(ctx, { headers, body, found }, deps) {
      const { db, temporal, config } = deps;
      const { workspace, key } = authOf(ctx);
      const { search: launched, reused } = await launchSearch(db, {
        workspace,
        key,
        projectId: found.project.id,
        idempotencyKey: headers['Idempotency-Key'],
        body,
        baseUrl: config.publicBaseUrl,
        requestId: ctx.state.requestId,
        config,
        reader: briefReaderOf(deps),
      });
      if (launched.status === 'queued') await startPass(db, temporal, launched, launched.pass_count);
      sendData(ctx, { ...searchResource(launched, config.publicBaseUrl), reused }, { status: reused ? 200 : 201 });
    },
  }),
  defineRoute({
    name: 'list_project_searches',
    method: 'GET',
    path: '/projects/{projectId}/searches',
    auth: 'searches:read',
    cost: 'free',
    summary: 'Every search of the project, oldest first, no paging.',
    tag: 'Searches',
    proposable: false,
    params: projectParams,
    load: loadProject,
    response: { kind: 'json', status: 200, data: z.array(searchListItem), total: true, description: 'The searches, oldest first' },
    async handler(ctx, { found }, { db, config }) {
      const searches = await searchRepository(db).listForProject(found.project.id);
      sendData(
        ctx,
        searches.map((s) => listedSearch(s, config.publicBaseUrl)),
        { total: searches.length },
      );
    },
  }),
  defineRoute({
    name: 'get_search',
    method: 'GET',
    path: '/searches/{searchId}',
    auth: 'searches:read',
    cost: 'free',
    summary: 'The search record: status, outcome, stop reason, counts, resolved criteria and links.',
    tag: 'Searches',
    proposable: false,
    params: searchParams,
    load: loadSearch,
    response: { kind: 'json', status: 200, data: search, description: 'The search' },
    async handler(ctx, { found }, { db, config }) {
      sendData(ctx, searchResource(found.search, config.publicBaseUrl, await searchRepository(db).lastPass(found.search.id)));
    },
  }),
  defineRoute({
    name: 'list_search_people',
    method: 'GET',
    path: '/searches/{searchId}/people',
    auth: 'searches:read',
    cost: 'free',
    summary: 'Scored people, best score first; page with limit and offset until an empty page.',
    tag: 'Searches',
    proposable: false,
    params: searchParams,
    // Only the version (not the whole search row): pages of completed searches are cached. A key's
    // request has it from authentication (the same round trip); a session's reads it here.
    load: async (ctx, { db }, { searchId }) => {
      const auth = authOf(ctx);
      const version = auth.searchVersion !== undefined ? auth.searchVersion : await searchRepository(db).version(auth.workspace.id, searchId);
      if (!version) throw notFound('search_not_found', 'Search');
      return version;
    },
    query: peopleQuery,
    response: { kind: 'json', status: 200, data: peoplePage, description: 'One page of people' },
    async handler(ctx, { params, query, found: version }, { db }) {
      const { limit, offset, min_score: minScore, profile: withProfile } = query;
      const page = { minScore, limit, offset, withProfile };
      const body = await peoplePageBody(params.searchId, version, page, async () => {
        const { people, total } = await searchRepository(db).scoredPeople(params.searchId, page);
        // Past the end: an empty page and total 0 (spec "Pagination": stop on an empty page).
        return `{"people":[${people.map((p) => personJson(p, withProfile)).join(',')}],"total":${total}}`;
      });
      sendEncodedData(ctx, body);
    },
  }),
  defineRoute({
    name: 'get_search_records',
    method: 'GET',
    path: '/searches/{searchId}/records',
    auth: 'shortlists:read',
    cost: 'free',
    summary: 'Every person the search returned, in the order returned, read or not.',
    tag: 'Searches',
    proposable: false,
    params: searchParams,
    load: loadSearch,
    response: { kind: 'json', status: 200, data: z.array(searchRecord), total: true, description: 'Every record, streamed' },
    async handler(ctx, { found }, { db }) {
      const batches = searchRepository(db).records(found.search.id);
      async function* resources() {
        for await (const batch of batches) yield batch.map(recordResource);
      }
      sendDataStream(ctx, resources());
    },
  }),
  defineRoute({
    name: 'export_search_records_csv',
    method: 'GET',
    path: '/searches/{searchId}/records.csv',
    auth: 'shortlists:read',
    cost: 'free',
    costLine: 'Free: CSV exports use no credits.',
    summary: 'The records as CSV (RFC 4180, UTF-8), streamed from the database.',
    tag: 'Searches',
    proposable: false,
    params: searchParams,
    load: loadSearch,
    response: { kind: 'csv', description: `CSV with the columns ${RECORD_COLUMNS.join(', ')}` },
    async handler(ctx, { found }, { db }) {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="search-${found.search.id}-records.csv"`);
      ctx.body = await searchRepository(db).recordsCsv(found.search.id, csvLine(RECORD_COLUMNS));
    },
  }),
];
