import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Db } from '../../src/db/knex';
import { searchRepository, type SearchRow } from '../../src/db/search.repository';
import { csvLine } from '../../src/domain/csv';
import { AppError, notFound } from '../../src/domain/errors';
import { isUuid } from '../../src/domain/ids';
import { launchSearch } from '../../src/searches/launch.service';
import { RECORD_COLUMNS, recordResource } from '../../src/searches/records';
import { startPass } from '../../src/searches/start.service';
import { personJson, searchResource } from '../../src/searches/view';
import { authOf } from '../context';
import { sendData, sendDataStream, sendRawData } from '../respond';
import { ResponseCache } from '../response-cache';
import { defineRoutes } from '../route-def';
import { findProjectOr404 } from './projects.routes';

/** The search of the caller's workspace, or 404 search_not_found (also for malformed ids). */
export async function findSearchOr404(db: Db, workspaceId: string, searchId: string): Promise<SearchRow> {
  const search = isUuid(searchId) ? await searchRepository(db).findInWorkspace(workspaceId, searchId) : undefined;
  if (!search) throw notFound('search_not_found', 'Search');
  return search;
}

const launchBody = z
  .object({
    criteria: z.record(z.string(), z.unknown()).optional().describe('Search criteria; see GET /reference/criteria'),
    jd_text: z.string().min(40).optional().describe('A job description (40+ characters) to extract criteria from'),
  })
  .strict()
  .describe('criteria or jd_text');

const peopleQuery = z.object({
  limit: z.string().optional().describe('1 to 500, default 100; out-of-range values are clamped'),
  offset: z.string().optional().describe('0 or more, default 0'),
  min_score: z.string().optional().describe('only people scoring at least this'),
  profile: z.enum(['true', 'false']).optional().describe('false leaves out the full profile'),
});

function integerParam(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw new AppError('invalid_request', 400, `${name} must be an integer`, { parameter: name });
  return Number(value);
}

function booleanParam(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new AppError('invalid_request', 400, `${name} must be true or false`, { parameter: name });
}

/** People pages of completed searches, by search version (see the searches_touch migration). */
const peoplePages = new ResponseCache(64 * 1024 * 1024);

export const searchRoutes = defineRoutes([
  {
    name: 'launch_search',
    method: 'POST',
    path: '/projects/{projectId}/searches',
    auth: 'searches:write',
    cost: 'shortlist_credit',
    costLine: 'Uses 1 shortlist credit; an idempotent replay (same Idempotency-Key, project and body) uses none.',
    summary: 'Launch a search with criteria or a job description; requires an Idempotency-Key header.',
    proposable: true,
    body: launchBody,
    async handler(ctx, { db, temporal, config }) {
      const { workspace, key } = authOf(ctx);
      const project = await findProjectOr404(db, workspace.id, ctx.params.projectId);
      const { search, reused } = await launchSearch(db, {
        workspace,
        key,
        projectId: project.id,
        idempotencyKey: ctx.get('Idempotency-Key') || undefined,
        body: ctx.state.body,
        baseUrl: config.publicBaseUrl,
      });
      if (search.status === 'queued') await startPass(db, temporal, search, search.pass_count);
      sendData(ctx, { ...searchResource(search, config.publicBaseUrl), reused }, { status: reused ? 200 : 201 });
    },
  },
  {
    name: 'list_project_searches',
    method: 'GET',
    path: '/projects/{projectId}/searches',
    auth: 'searches:read',
    cost: 'free',
    costLine: 'Free: reads use no credits.',
    summary: 'Every search of the project, oldest first, no paging.',
    proposable: false,
    async handler(ctx, { db, config }) {
      const project = await findProjectOr404(db, authOf(ctx).workspace.id, ctx.params.projectId);
      const searches = await searchRepository(db).listForProject(project.id);
      sendData(ctx, searches.map((s) => searchResource(s, config.publicBaseUrl)), { total: searches.length });
    },
  },
  {
    name: 'get_search',
    method: 'GET',
    path: '/searches/{searchId}',
    auth: 'searches:read',
    cost: 'free',
    costLine: 'Free: reads use no credits.',
    summary: 'The search record: status, outcome, stop reason, counts, resolved criteria and links.',
    proposable: false,
    async handler(ctx, { db, config }) {
      const search = await findSearchOr404(db, authOf(ctx).workspace.id, ctx.params.searchId);
      sendData(ctx, searchResource(search, config.publicBaseUrl, await searchRepository(db).lastPass(search.id)));
    },
  },
  {
    name: 'list_search_people',
    method: 'GET',
    path: '/searches/{searchId}/people',
    auth: 'searches:read',
    cost: 'free',
    costLine: 'Free: reads use no credits.',
    summary: 'Scored people, best score first; page with limit and offset until an empty page.',
    proposable: false,
    query: peopleQuery,
    async handler(ctx, { db }) {
      const workspaceId = authOf(ctx).workspace.id;
      const limit = Math.min(500, Math.max(1, integerParam(ctx.query.limit, 'limit') ?? 100));
      const offset = integerParam(ctx.query.offset, 'offset') ?? 0;
      if (offset < 0) throw new AppError('invalid_request', 400, 'offset must be 0 or more', { parameter: 'offset' });
      const minScore = integerParam(ctx.query.min_score, 'min_score');
      const withProfile = booleanParam(ctx.query.profile, 'profile', true);
      if (!isUuid(ctx.params.searchId)) throw notFound('search_not_found', 'Search');
      const version = await searchRepository(db).version(workspaceId, ctx.params.searchId);
      if (!version) throw notFound('search_not_found', 'Search');
      // A completed search's pages only change with a new version (a pass, a re-score).
      const key = `${ctx.params.searchId}|${version.updated_at.toISOString()}|${minScore}|${limit}|${offset}|${withProfile}`;
      let data = version.status === 'complete' ? peoplePages.get(key) : undefined;
      if (data === undefined) {
        const { people, total } = await searchRepository(db).scoredPeople(ctx.params.searchId, { minScore, limit, offset, withProfile });
        // Past the end: an empty page and total 0 (spec "Pagination": stop on an empty page).
        data = `{"people":[${people.map((p) => personJson(p, withProfile)).join(',')}],"total":${total}}`;
        if (version.status === 'complete') peoplePages.set(key, data);
      }
      sendRawData(ctx, data);
    },
  },
  {
    name: 'get_search_records',
    method: 'GET',
    path: '/searches/{searchId}/records',
    auth: 'shortlists:read',
    cost: 'free',
    costLine: 'Free: reads use no credits.',
    summary: 'Every person the search returned, in the order returned, read or not.',
    proposable: false,
    async handler(ctx, { db }) {
      const search = await findSearchOr404(db, authOf(ctx).workspace.id, ctx.params.searchId);
      const batches = searchRepository(db).records(search.id);
      async function* resources() {
        for await (const batch of batches) yield batch.map(recordResource);
      }
      sendDataStream(ctx, resources());
    },
  },
  {
    name: 'export_search_records_csv',
    method: 'GET',
    path: '/searches/{searchId}/records.csv',
    auth: 'shortlists:read',
    cost: 'free',
    costLine: 'Free: CSV exports use no credits.',
    summary: 'The records as CSV (RFC 4180, UTF-8), streamed from the database.',
    proposable: false,
    async handler(ctx, { db }) {
      const search = await findSearchOr404(db, authOf(ctx).workspace.id, ctx.params.searchId);
      const batches = searchRepository(db).recordCsvLines(search.id);
      async function* lines() {
        yield csvLine(RECORD_COLUMNS);
        yield* batches;
      }
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="search-${search.id}-records.csv"`);
      // One batch buffered at a time (Readable.from would otherwise read 16 batches ahead).
      ctx.body = Readable.from(lines(), { highWaterMark: 1 });
    },
  },
]);
