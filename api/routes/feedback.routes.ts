import { z } from 'zod';
import { FEEDBACK_SIGNAL } from '../../src/feedback/calibration.contract';
import { feedbackAccepted, feedbackBody, storedRating } from '../../src/feedback/feedback.schemas';
import { listFeedback, submitFeedback } from '../../src/feedback/feedback.service';
import { searchAttributes } from '../../src/searches/start.service';
import { searchParams } from '../../src/searches/searches.schemas';
import { catalog, signalWithStartWorkflow } from '../../src/temporal/catalog';
import { AppError } from '../../src/domain/errors';
import { loadSearch } from '../resource-loaders';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

export const feedbackRoutes = [
  defineRoute({
    name: 'submit_feedback',
    method: 'POST',
    path: '/searches/{searchId}/feedback',
    auth: 'feedback:write',
    cost: 'free',
    costLine: 'Free: ratings and the calibration they start use no credits.',
    summary:
      "Rate people of the search good or not a fit (1 to 200 per call; a person's latest verdict wins, a repeat changes nothing). Once no rating has come for a moment, the search learns from all its ratings, re-scores everyone read and reads on best-first.",
    tag: 'Feedback',
    proposable: true,
    params: searchParams,
    load: loadSearch,
    body: feedbackBody,
    errors: ['candidate_not_found'],
    example: { ratings: [{ candidate_id: '00000000-0000-4000-8000-000000000000', verdict: 'good', reasons: ['industry', 'seniority'] }] },
    response: { kind: 'json', status: 200, data: feedbackAccepted, description: 'The ratings, stored; calibration follows' },
    async handler(ctx, { body, found: { search } }, { db, temporal, config }) {
      const stored = await submitFeedback(db, search, body);
      const workflowId = catalog.calibration.id(search.id);
      try {
        await signalWithStartWorkflow(temporal, catalog.calibration, {
          workflowId,
          args: [{ searchId: search.id, quietSeconds: config.calibration.quietSeconds }],
          signal: FEEDBACK_SIGNAL,
          typedSearchAttributes: searchAttributes(search),
        });
      } catch {
        // The ratings are stored: sending the same call again changes nothing and signals again.
        throw new AppError(
          'service_unavailable',
          503,
          'The ratings were stored but calibration could not be started yet; send the same ratings again',
          { search_id: search.id, retry_after_seconds: 5 },
          { 'Retry-After': '5' },
        );
      }
      sendData(ctx, { ...stored, calibration_workflow_id: workflowId });
    },
  }),
  defineRoute({
    name: 'list_feedback',
    method: 'GET',
    path: '/searches/{searchId}/feedback',
    auth: 'searches:read',
    cost: 'free',
    summary: "The search's ratings, latest first: each person's latest verdict, reasons and note.",
    tag: 'Feedback',
    proposable: false,
    params: searchParams,
    load: loadSearch,
    response: { kind: 'json', status: 200, data: z.array(storedRating), total: true, description: 'The ratings, latest first' },
    async handler(ctx, { found: { search } }, { db }) {
      const ratings = await listFeedback(db, search.id);
      sendData(ctx, ratings, { total: ratings.length });
    },
  }),
];
