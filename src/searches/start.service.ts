import { WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { Db } from '../db/knex';
import { searchPassRepository } from '../db/search-pass.repository';
import type { SearchRow } from '../db/search.repository';
import { AppError } from '../domain/errors';
import type { Temporal } from '../temporal/client';
import { ProjectIdAttr, SearchIdAttr, WorkspaceIdAttr } from '../temporal/search-attributes';
import { workflowIds } from '../temporal/workflow-ids';

/** WorkspaceId, ProjectId and SearchId on every search-related workflow, for the Temporal UI. */
export const searchAttributes = (search: SearchRow) =>
  new TypedSearchAttributes([
    { key: WorkspaceIdAttr, value: search.workspace_id },
    { key: ProjectIdAttr, value: search.project_id },
    { key: SearchIdAttr, value: search.id },
  ]);

/**
 * Starts a search-related workflow under its deterministic id: starting it again is a no-op
 * (returns the running or finished one). When Temporal cannot be reached the caller's state stays
 * as committed and the client is told to retry.
 */
export async function startSearchWorkflow(temporal: Pick<Temporal, 'client' | 'taskQueue'>, search: SearchRow, type: string, workflowId: string, args: unknown[]): Promise<WorkflowHandle> {
  try {
    // REJECT_DUPLICATE: a pass runs once, even when its start is repeated after its workflow ended.
    return await temporal.client.workflow.start(type, { taskQueue: temporal.taskQueue, workflowId, args, workflowIdReusePolicy: 'REJECT_DUPLICATE', typedSearchAttributes: searchAttributes(search) });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return temporal.client.workflow.getHandle(workflowId);
    throw new AppError('service_unavailable', 503, 'The request was accepted but its work could not be started yet; retry', { search_id: search.id, retry_after_seconds: 5 }, { 'Retry-After': '5' });
  }
}

/** The workflow type that runs each kind of pass; its id was stored on the pass when it was booked. */
const PASS_WORKFLOW_TYPES = { launch: 'searchWorkflow', expansion: 'expansionWorkflow', database_pass: 'databasePassWorkflow' } as const;

/**
 * Starts the workflow of a booked pass (a no-op when it runs already) and records that it
 * started. When Temporal cannot be reached the pass stays booked with its credit reserved: a retry
 * of a launch with the same Idempotency-Key starts it, and otherwise the stranded-pass sweep does
 * (src/searches/recovery.service.ts). Returns the workflow id.
 */
export async function startPass(db: Db, temporal: Pick<Temporal, 'client' | 'taskQueue'>, search: SearchRow, pass: number): Promise<string> {
  const passes = searchPassRepository(db);
  const row = await passes.workflowOf(search.id, pass);
  const input = row.kind === 'expansion' ? { searchId: search.id, pass, projectId: search.project_id } : { searchId: search.id, pass };
  await startSearchWorkflow(temporal, search, PASS_WORKFLOW_TYPES[row.kind], row.workflow_id, [input]);
  await passes.markWorkflowStarted(search.id, pass);
  return row.workflow_id;
}
