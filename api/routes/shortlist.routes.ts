import { Readable } from 'node:stream';
import { z } from 'zod';
import { csvLine } from '../../src/domain/csv';
import { addMembers, checkCandidateIds, MEMBER_COLUMNS, removeMember, shortlistCount, shortlistMembers } from '../../src/shortlist/shortlist.service';
import { authOf } from '../context';
import { sendData } from '../respond';
import { defineRoutes } from '../route-def';
import { findProjectOr404 } from './projects.routes';

export const shareUrl = (appUrl: string, token: string) => `${appUrl}/share/${token}`;

export const shortlistRoutes = defineRoutes([
  {
    name: 'get_shortlist',
    method: 'GET',
    path: '/projects/{projectId}/shortlist',
    auth: 'shortlists:read',
    cost: 'free',
    costLine: 'Free: reads use no credits.',
    summary: 'The whole shortlist of the project (no paging); meta.total counts the members.',
    proposable: false,
    async handler(ctx, { db }) {
      const project = await findProjectOr404(db, authOf(ctx).workspace.id, ctx.params.projectId);
      const members = await shortlistMembers(db, project.id);
      sendData(ctx, members, { total: members.length });
    },
  },
  {
    name: 'export_shortlist_csv',
    method: 'GET',
    path: '/projects/{projectId}/shortlist.csv',
    auth: 'shortlists:read',
    cost: 'free',
    costLine: 'Free: CSV exports use no credits.',
    summary: 'The whole shortlist as CSV (RFC 4180, UTF-8).',
    proposable: false,
    async handler(ctx, { db }) {
      const project = await findProjectOr404(db, authOf(ctx).workspace.id, ctx.params.projectId);
      const members = await shortlistMembers(db, project.id);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="project-${project.id}-shortlist.csv"`);
      ctx.body = Readable.from([csvLine(MEMBER_COLUMNS), ...members.map((m) => csvLine(MEMBER_COLUMNS.map((c) => m[c])))]);
    },
  },
  {
    name: 'add_shortlist_members',
    method: 'POST',
    path: '/projects/{projectId}/shortlist/members',
    auth: 'shortlists:write',
    cost: 'free',
    costLine: 'Free: shortlist additions use no credits.',
    summary: 'Add up to 200 candidates from the people of the project\'s searches; repeating is safe.',
    proposable: true,
    body: z.object({ candidate_ids: z.array(z.string()).min(1).max(200) }).strict(),
    async handler(ctx, { db, config }) {
      const { workspace } = authOf(ctx);
      const project = await findProjectOr404(db, workspace.id, ctx.params.projectId);
      const ids = checkCandidateIds(ctx.state.body);
      sendData(ctx, await addMembers(db, { workspaceId: workspace.id, projectId: project.id, baseUrl: config.publicBaseUrl }, ids));
    },
  },
  {
    name: 'remove_shortlist_member',
    method: 'DELETE',
    path: '/projects/{projectId}/shortlist/members/{candidateId}',
    auth: 'shortlists:write',
    cost: 'free',
    costLine: 'Free.',
    summary: 'Remove a candidate from the shortlist; removed is false when they were not on it.',
    proposable: true,
    async handler(ctx, { db, config }) {
      const { workspace } = authOf(ctx);
      const project = await findProjectOr404(db, workspace.id, ctx.params.projectId);
      sendData(ctx, await removeMember(db, { workspaceId: workspace.id, projectId: project.id, baseUrl: config.publicBaseUrl }, ctx.params.candidateId));
    },
  },
  {
    name: 'get_share_link',
    method: 'GET',
    path: '/projects/{projectId}/share-link',
    auth: 'shortlists:read',
    cost: 'free',
    costLine: 'Free: the share link uses no credits.',
    summary: 'The project\'s one public share link (made with the project) and how many people it shows now.',
    proposable: false,
    async handler(ctx, { db, config }) {
      const project = await findProjectOr404(db, authOf(ctx).workspace.id, ctx.params.projectId);
      sendData(ctx, { project_id: project.id, url: shareUrl(config.appUrl, project.share_token), shortlisted: await shortlistCount(db, project.id) });
    },
  },
]);
