import { WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
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
export async function startSearchWorkflow(temporal: Temporal, search: SearchRow, type: string, workflowId: string, args: unknown[]): Promise<WorkflowHandle> {
  try {
    return await temporal.client.workflow.start(type, { taskQueue: temporal.taskQueue, workflowId, args, typedSearchAttributes: searchAttributes(search) });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return temporal.client.workflow.getHandle(workflowId);
    throw new AppError('service_unavailable', 503, 'The request was accepted but its work could not be started yet; retry', { search_id: search.id, retry_after_seconds: 5 }, { 'Retry-After': '5' });
  }
}

/**
 * Starts the workflow of a search pass. When Temporal cannot be reached the search stays queued
 * with its credit reserved, and a retry with the same Idempotency-Key starts it.
 */
export async function startSearchPass(temporal: Temporal, search: SearchRow, pass: number): Promise<void> {
  await startSearchWorkflow(temporal, search, 'searchWorkflow', workflowIds.searchPass(search.id, pass), [{ searchId: search.id, pass }]);
}
