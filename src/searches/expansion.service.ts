import type { Config } from '../config';
import type { ApiKey } from '../db/api-key.repository';
import { costEventRepository } from '../db/cost-event.repository';
import { creditLedgerRepository } from '../db/credit-ledger.repository';
import type { Db } from '../db/knex';
import { projectRepository } from '../db/project.repository';
import { searchPassRepository } from '../db/search-pass.repository';
import { searchRepository, type SearchRow } from '../db/search.repository';
import { workspaceRepository, type Workspace } from '../db/workspace.repository';
import { broadenCriteria, MAX_EXPANSION_LEVEL, type Broadening } from '../ranking/broadening';
import type { ResolvedCriteria } from '../domain/criteria';
import { AppError } from '../domain/errors';
import { ensureLiveSearchPossible, planCheck, requireCredit, reserveKey } from './launch.service';
import { workflowIds } from '../temporal/workflow-ids';

export interface ExpansionRequest {
  search: SearchRow;
  pass: number;
  level: number;
  /** The project's expansion attempt number (deterministic workflow id `expansion-<projectId>-<n>`). */
  attempt: number;
  criteria: ResolvedCriteria;
  broadening: Broadening[];
}

/**
 * Books an expansion of the project's most recent search. Under the project row lock (so two
 * expansions at once give one expansion and one 409): the refusals, the credit reservation and
 * the new pass row, in one transaction. The credit comes back exactly once if the pass fails, so a
 * client that retries after a failed expansion is charged once in all.
 */
export async function requestExpansion(
  db: Db,
  req: { workspace: Workspace; key: ApiKey; projectId: string; requestId?: string | null; config: Config },
): Promise<ExpansionRequest> {
  return db.transaction(async (trx) => {
    const searchRows = searchRepository(trx);
    const passes = searchPassRepository(trx);
    await projectRepository(trx).lock(req.projectId);
    const searches = await searchRows.listForProjectNewestFirst(req.projectId);
    if (searches.length === 0) throw new AppError('no_search_to_expand', 409, 'The project has no search to expand; launch one first');
    if (searches.some((s) => s.status === 'running' || s.status === 'queued')) {
      throw new AppError('search_running', 409, 'A search of this project is still running; expand it once it has completed');
    }
    const latest = searches[0];
    if (latest.status !== 'complete')
      throw new AppError('search_not_finished', 409, `The most recent search of this project ended ${latest.status}; only a completed search can be expanded`, {
        search_id: latest.id,
        status: latest.status,
      });

    const expansions = await passes.expansionStatuses(req.projectId);
    const succeeded = expansions.filter((status) => status === 'complete').length;
    if (succeeded >= MAX_EXPANSION_LEVEL)
      throw new AppError('expansion_limit', 409, `A project can be expanded at most ${MAX_EXPANSION_LEVEL} times`, {
        expansions: succeeded,
        limit: MAX_EXPANSION_LEVEL,
      });

    const workspace = (await workspaceRepository(trx).find(req.workspace.id))!;
    planCheck(workspace);
    // A live search expands live: refused with 424 before any credit is reserved, not charged and refunded.
    if (latest.criteria.mode === 'live') await ensureLiveSearchPossible(trx, req.config, workspace.id);
    const bucket = req.key.funding_mode;
    await requireCredit(trx, workspace.id, bucket);

    const level = succeeded + 1;
    // From the search's current criteria (the launch's, plus any applied scoring change).
    const { criteria, broadening } = broadenCriteria(latest.criteria, level);
    const pass = latest.pass_count + 1;
    const attempt = expansions.length + 1;
    await passes.insert({
      search_id: latest.id,
      pass,
      kind: 'expansion',
      level,
      criteria,
      broadening: JSON.stringify(broadening),
      status: 'queued',
      workflow_id: workflowIds.expansion(req.projectId, attempt),
      previous: { outcome: latest.outcome, stop_reason: latest.stop_reason, closed_at: latest.closed_at },
    });
    const search = await searchRows.update(latest.id, { status: 'queued', pass_count: pass });
    await creditLedgerRepository(trx).append({
      workspaceId: workspace.id,
      bucket,
      delta: -1,
      reason: 'search:expansion',
      uniqueKey: reserveKey(latest.id, pass),
    });
    await costEventRepository(trx).record({
      workspaceId: workspace.id,
      requestId: req.requestId ?? null,
      action: 'expand_project',
      keyId: req.key.id,
      credits: 1,
      uniqueKey: reserveKey(latest.id, pass),
    });
    return { search, pass, level, attempt, criteria, broadening };
  });
}
