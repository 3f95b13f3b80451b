import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { SearchRow } from '../db/search.repository';
import { AppError } from '../domain/errors';
import type { Temporal } from '../temporal/client';
import { ProjectIdAttr, SearchIdAttr, WorkspaceIdAttr } from '../temporal/search-attributes';
import { searchWorkflowId } from './pass';

/**
 * Starts the workflow of a search pass. The id is deterministic, so starting again (a replayed
 * launch) is a no-op. When Temporal cannot be reached the search stays queued with its credit
 * reserved, and a retry with the same Idempotency-Key starts it.
 */
export async function startSearchPass(temporal: Temporal, search: SearchRow, pass: number): Promise<void> {
  try {
    await temporal.client.workflow.start('searchWorkflow', {
      taskQueue: temporal.taskQueue,
      workflowId: searchWorkflowId(search.id, pass),
      args: [{ searchId: search.id, pass }],
      typedSearchAttributes: new TypedSearchAttributes([
        { key: WorkspaceIdAttr, value: search.workspace_id },
        { key: ProjectIdAttr, value: search.project_id },
        { key: SearchIdAttr, value: search.id },
      ]),
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return;
    throw new AppError('service_unavailable', 503, 'The search was accepted but could not be started yet; retry with the same Idempotency-Key', { search_id: search.id, retry_after_seconds: 5 }, { 'Retry-After': '5' });
  }
}
