import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { AppError } from '../../src/domain/errors';
import { DEFAULT_WEIGHTS } from '../../src/domain/scoring';
import { assertComplete, requestDatabasePass } from '../../src/searches/database-pass.service';
import { requestExpansion } from '../../src/searches/expansion.service';
import { previewScoring, resolveScoringChange } from '../../src/searches/rescoring.service';
import { startPass, startSearchWorkflow } from '../../src/searches/start.service';
import { searchResource } from '../../src/searches/view';
import { catalog } from '../../src/temporal/catalog';
import { authOf } from '../context';
import { sendData } from '../respond';
import { defineRoutes } from '../route-def';
import { findProjectOr404 } from './projects.routes';
import { findSearchOr404 } from './searches.routes';

const emptyBody = z.object({}).strict().describe('Empty, or {}');

const scoringChangeBody = z
  .object({
    criteria: z
      .object({
        skills: z.array(z.string()).optional(),
        must_have_skills: z.array(z.string()).optional(),
        years_experience: z.object({ min: z.number().optional(), max: z.number().optional() }).optional(),
        industries: z.array(z.string()).optional(),
        shortlist_threshold: z.number().int().min(0).max(100).optional(),
      })
      .describe('Partial criteria; titles, family, metro or locations changes are refused with needs_new_search')
      .optional(),
    weights: z.object(Object.fromEntries(Object.keys(DEFAULT_WEIGHTS).map((k) => [k, z.number().min(0).max(100).optional()]))).optional(),
  })
  .describe('A scoring change: criteria and/or weights');

function requireEmptyBody(body: unknown): void {
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length > 0)) {
    throw new AppError('invalid_request', 400, 'This operation takes an empty body or {}');
  }
}

/** Unwraps a refusal raised inside a workflow's activity back into the API error it stands for. */
function workflowError(err: unknown): unknown {
  const cause = err instanceof WorkflowFailedError ? (err.cause instanceof ApplicationFailure ? err.cause : err.cause?.cause) : undefined;
  if (cause instanceof ApplicationFailure && cause.type && cause.details?.[0]) {
    const { status, details } = cause.details[0] as { status: number; details: Record<string, unknown> | null };
    return new AppError(cause.type, status, cause.message, details);
  }
  return err;
}

export const searchPassRoutes = defineRoutes([
  {
    name: 'expand_project',
    method: 'POST',
    path: '/projects/{projectId}/expand',
    auth: 'searches:write',
    cost: 'shortlist_credit',
    costLine: 'Uses 1 shortlist credit per successful expansion (given back if the pass fails); not idempotent.',
    summary: "A new pass of the project's latest search with broadened criteria; at most 2 per project.",
    proposable: true,
    body: emptyBody,
    async handler(ctx, { db, temporal, config }) {
      const { workspace, key } = authOf(ctx);
      const project = await findProjectOr404(db, workspace.id, ctx.params.projectId);
      requireEmptyBody(ctx.state.body);
      const expansion = await requestExpansion(db, { workspace, key, projectId: project.id });
      const workflowId = await startPass(db, temporal, expansion.search, expansion.pass);
      sendData(
        ctx,
        { search: searchResource(expansion.search, config.publicBaseUrl), pass: expansion.pass, level: expansion.level, broadening: expansion.broadening, criteria: expansion.criteria, workflow_id: workflowId },
        { status: 202 },
      );
    },
  },
  {
    name: 'preview_scoring',
    method: 'POST',
    path: '/searches/{searchId}/scoring/preview',
    auth: 'searches:read',
    cost: 'free',
    costLine: 'Free: a preview changes nothing and uses no credits.',
    summary: 'What a scoring change would do: new score distribution, threshold crossings, top changes.',
    proposable: false,
    body: scoringChangeBody,
    async handler(ctx, { db }) {
      const search = await findSearchOr404(db, authOf(ctx).workspace.id, ctx.params.searchId);
      const { scoring } = resolveScoringChange(search, ctx.state.body);
      sendData(ctx, await previewScoring(db, search, scoring));
    },
  },
  {
    name: 'apply_scoring',
    method: 'POST',
    path: '/searches/{searchId}/scoring/apply',
    auth: 'searches:write',
    cost: 'free',
    costLine: 'Free: re-scoring uses no credits.',
    summary: 'Re-score the same people with a scoring change; the shortlist follows. Safe to retry.',
    proposable: true,
    body: scoringChangeBody,
    async handler(ctx, { db, temporal }) {
      const search = await findSearchOr404(db, authOf(ctx).workspace.id, ctx.params.searchId);
      assertComplete(search);
      resolveScoringChange(search, ctx.state.body); // refuse bad changes before starting anything
      const requestId = randomUUID();
      const handle = await startSearchWorkflow(temporal, search, catalog.rescore, catalog.rescore.id(search.id, requestId), [{ searchId: search.id, body: ctx.state.body, requestId }]);
      try {
        sendData(ctx, { ...(await handle.result()), workflow_id: handle.workflowId });
      } catch (err) {
        throw workflowError(err);
      }
    },
  },
  {
    name: 'run_database_pass',
    method: 'POST',
    path: '/searches/{searchId}/database-pass',
    auth: 'searches:write',
    cost: 'free',
    costLine: 'Free: a database pass uses no credits.',
    summary: "Re-score the search's people against their latest stored profiles (a new search pass).",
    proposable: true,
    body: emptyBody,
    async handler(ctx, { db, temporal, config }) {
      const search = await findSearchOr404(db, authOf(ctx).workspace.id, ctx.params.searchId);
      requireEmptyBody(ctx.state.body);
      const { search: running, pass } = await requestDatabasePass(db, search.id);
      const workflowId = await startPass(db, temporal, running, pass);
      sendData(ctx, { search: searchResource(running, config.publicBaseUrl), pass, workflow_id: workflowId }, { status: 202 });
    },
  },
]);
