import type { BriefReader } from '../briefs/brief-reader';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import { scanRepository } from '../db/scan.repository';
import type { Workspace } from '../db/workspace.repository';
import { AppError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import { launchSearch } from '../searches/launch.service';
import { listedSearch, searchResource } from '../searches/searches.presenter';
import { startPass } from '../searches/start.service';
import type { Temporal } from '../temporal/client';
import type { CreateScanBody } from './scans.schemas';

/** A scan is a search seen from the app (DESIGN.md §10). */

export const SCAN_LIST_LIMIT = 200;

/** The workspace's newest 200 searches of all projects, with their progress counters. */
export async function listScans(db: Db, config: Config, workspaceId: string) {
  const searches = await scanRepository(db).newest(workspaceId, SCAN_LIST_LIMIT);
  return searches.map((s) => listedSearch(s, config.publicBaseUrl));
}

/**
 * Launches through the key API's own launch service with the body its route schema validated
 * (`launchBody`, extended by the project): the same credit, plan, limit and idempotency rules
 * (the session draws from the workspace bucket).
 */
export async function launchScan(
  db: Db,
  temporal: Temporal,
  config: Config,
  reader: BriefReader,
  workspace: Workspace,
  body: CreateScanBody,
  idempotencyKey: string,
) {
  const { project_id: projectId, ...launch } = body;
  // A malformed id is "not found", like another workspace's project.
  if (!isUuid(projectId)) throw new AppError('project_not_found', 404, 'Project not found');
  const { search, reused } = await launchSearch(db, {
    workspace,
    key: { id: null, funding_mode: 'workspace' },
    projectId,
    idempotencyKey,
    body: launch,
    baseUrl: config.publicBaseUrl,
    config,
    reader,
  });
  if (search.status === 'queued') await startPass(db, temporal, search, search.pass_count);
  return { scan: { ...searchResource(search, config.publicBaseUrl), reused }, reused };
}
