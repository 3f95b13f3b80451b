import { randomUUID } from 'node:crypto';
import { projectParams } from '../../src/projects/projects.schemas';
import { assertComplete, requestDatabasePass } from '../../src/searches/database-pass.service';
import { requestExpansion } from '../../src/searches/expansion.service';
import { previewScoring, resolveScoringChange } from '../../src/searches/rescoring.service';
import { startPass, startSearchWorkflow } from '../../src/searches/start.service';
import { searchResource } from '../../src/searches/searches.presenter';
import {
  databasePassStarted,
  emptyBody,
  expansionStarted,
  scoringApplied,
  scoringChangeBody,
  scoringPreview,
  searchParams,
} from '../../src/searches/searches.schemas';
import { catalog } from '../../src/temporal/catalog';
import { authOf } from '../context';
import { loadProject, loadSearch } from '../resource-loaders';
import { sendData } from '../respond';
import { defineRoute, type RequestIssue } from '../route-def';
import { workflowRefusal } from '../temporal-errors';

/** Shape failures under `criteria` are invalid_criteria, like the merged criteria's own problems. */
const scoringInvalidCode = ({ path }: RequestIssue) => (path[0] === 'criteria' ? 'invalid_criteria' : undefined);

export const searchPassRoutes = [
  defineRoute({
    name: 'expand_project',
    method: 'POST',
    path: '/projects/{projectId}/expand',
    auth: 'searches:write',
    cost: 'shortlist_credit',
    costLine: 'Uses 1 shortlist credit per successful expansion (given back if the pass fails); not idempotent.',
    summary: "A new pass of the project's latest search with broadened criteria; at most 2 per project.",
    tag: 'Searches',
    proposable: true,
    params: projectParams,
    load: loadProject,
    body: emptyBody,
    errors: [
      'search_running',
      'search_not_finished',
      'no_search_to_expand',
      'expansion_limit',
      'plan_required',
      'no_active_plan',
      'shortlist_allocation_exhausted',
      'provider_unavailable',
      'search_unavailable',
    ],
    response: { kind: 'json', status: 202, data: expansionStarted, description: 'The expansion pass, started' },
    async handler(ctx, { found }, { db, temporal, config }) {
      const { workspace, key } = authOf(ctx);
      const expansion = await requestExpansion(db, { workspace, key, projectId: found.project.id, requestId: ctx.state.requestId, config });
      const workflowId = await startPass(db, temporal, expansion.search, expansion.pass);
      sendData(
        ctx,
        {
          search: searchResource(expansion.search, config.publicBaseUrl),
          pass: expansion.pass,
          level: expansion.level,
          broadening: expansion.broadening,
          criteria: expansion.criteria,
          workflow_id: workflowId,
        },
        { status: 202 },
      );
    },
  }),
  defineRoute({
    name: 'preview_scoring',
    method: 'POST',
    path: '/searches/{searchId}/scoring/preview',
    auth: 'searches:read',
    cost: 'free',
    costLine: 'Free: a preview changes nothing and uses no credits.',
    summary: 'What a scoring change would do: new score distribution, threshold crossings, top changes.',
    tag: 'Scoring',
    proposable: false,
    params: searchParams,
    load: loadSearch,
    body: scoringChangeBody,
    invalidCode: scoringInvalidCode,
    invalidCodes: ['invalid_criteria'],
    errors: ['needs_new_search', 'invalid_criteria'],
    example: { criteria: { shortlist_threshold: 60, skills: ['TypeScript'] }, weights: { skills: 40 } },
    response: { kind: 'json', status: 200, data: scoringPreview, description: 'What the change would do' },
    async handler(ctx, { body, found }, { db }) {
      const { scoring } = resolveScoringChange(found.search, body);
      sendData(ctx, await previewScoring(db, found.search, scoring));
    },
  }),
  defineRoute({
    name: 'apply_scoring',
    method: 'POST',
    path: '/searches/{searchId}/scoring/apply',
    auth: 'searches:write',
    cost: 'free',
    costLine: 'Free: re-scoring uses no credits.',
    summary: 'Re-score the same people with a scoring change; the shortlist follows. Safe to retry.',
    tag: 'Scoring',
    proposable: true,
    params: searchParams,
    load: loadSearch,
    body: scoringChangeBody,
    invalidCode: scoringInvalidCode,
    invalidCodes: ['invalid_criteria'],
    errors: ['needs_new_search', 'invalid_criteria', 'search_running', 'search_not_finished'],
    example: { criteria: { shortlist_threshold: 60 } },
    response: { kind: 'json', status: 200, data: scoringApplied, description: 'The re-score, done' },
    async handler(ctx, { body, found: { search } }, { temporal }) {
      assertComplete(search);
      resolveScoringChange(search, body); // refuse bad changes before starting anything
      const requestId = randomUUID();
      const handle = await startSearchWorkflow(temporal, search, catalog.rescore, catalog.rescore.id(search.id, requestId), [
        { searchId: search.id, body, requestId },
      ]);
      try {
        sendData(ctx, { ...(await handle.result()), workflow_id: handle.workflowId });
      } catch (err) {
        throw workflowRefusal(err);
      }
    },
  }),
  defineRoute({
    name: 'run_database_pass',
    method: 'POST',
    path: '/searches/{searchId}/database-pass',
    auth: 'searches:write',
    cost: 'free',
    costLine: 'Free: a database pass uses no credits.',
    summary: "Re-score the search's people against their latest stored profiles (a new search pass).",
    tag: 'Scoring',
    proposable: true,
    params: searchParams,
    load: loadSearch,
    body: emptyBody,
    errors: ['search_running', 'search_not_finished'],
    response: { kind: 'json', status: 202, data: databasePassStarted, description: 'The database pass, started' },
    async handler(ctx, { found }, { db, temporal, config }) {
      const { search: running, pass } = await requestDatabasePass(db, found.search.id);
      const workflowId = await startPass(db, temporal, running, pass);
      sendData(ctx, { search: searchResource(running, config.publicBaseUrl), pass, workflow_id: workflowId }, { status: 202 });
    },
  }),
];
