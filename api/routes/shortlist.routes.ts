import { z } from 'zod';
import { projectParams } from '../../src/projects/projects.schemas';
import { membersAddedResource, shareUrl } from '../../src/shortlist/shortlist.presenter';
import { addMembersBody, memberParams, memberRemoved, membersAdded, shareLink, shortlistMember } from '../../src/shortlist/shortlist.schemas';
import { addMembers, MEMBER_COLUMNS, removeMember, shortlistCount, shortlistCsv, shortlistMembers } from '../../src/shortlist/shortlist.service';
import { authOf } from '../context';
import { loadProject } from '../resource-loaders';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

const free = { cost: 'free', tag: 'Shortlist' } as const;

export const shortlistRoutes = [
  defineRoute({
    name: 'get_shortlist',
    method: 'GET',
    path: '/projects/{projectId}/shortlist',
    auth: 'shortlists:read',
    ...free,
    summary: 'The whole shortlist of the project (no paging); meta.total counts the members.',
    proposable: false,
    params: projectParams,
    load: loadProject,
    response: { kind: 'json', status: 200, data: z.array(shortlistMember), total: true, description: 'Every member, oldest first' },
    async handler(ctx, { found }, { db }) {
      const members = await shortlistMembers(db, found.project.id);
      sendData(ctx, members, { total: members.length });
    },
  }),
  defineRoute({
    name: 'export_shortlist_csv',
    method: 'GET',
    path: '/projects/{projectId}/shortlist.csv',
    auth: 'shortlists:read',
    ...free,
    costLine: 'Free: CSV exports use no credits.',
    summary: 'The whole shortlist as CSV (RFC 4180, UTF-8).',
    proposable: false,
    params: projectParams,
    load: loadProject,
    response: { kind: 'csv', description: `CSV with the columns ${MEMBER_COLUMNS.join(', ')}` },
    async handler(ctx, { found: { project } }, { db }) {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="project-${project.id}-shortlist.csv"`);
      ctx.body = await shortlistCsv(db, project.id);
    },
  }),
  defineRoute({
    name: 'add_shortlist_members',
    method: 'POST',
    path: '/projects/{projectId}/shortlist/members',
    auth: 'shortlists:write',
    ...free,
    costLine: 'Free: shortlist additions use no credits.',
    summary: "Add up to 200 candidates from the people of the project's searches; repeating is safe.",
    proposable: true,
    params: projectParams,
    load: loadProject,
    body: addMembersBody,
    invalidCodes: ['candidate_ids_required'],
    errors: ['candidate_not_found'],
    example: { candidate_ids: ['3f0c2a4e-8d1b-4c6a-9e2f-1a2b3c4d5e6f'] },
    response: { kind: 'json', status: 200, data: membersAdded, description: 'What was added and what was already listed' },
    async handler(ctx, { body, found }, { db, config }) {
      const result = await addMembers(
        db,
        { workspaceId: authOf(ctx).workspace.id, projectId: found.project.id, baseUrl: config.publicBaseUrl },
        body.candidate_ids,
      );
      sendData(ctx, membersAddedResource(result));
    },
  }),
  defineRoute({
    name: 'remove_shortlist_member',
    method: 'DELETE',
    path: '/projects/{projectId}/shortlist/members/{candidateId}',
    auth: 'shortlists:write',
    ...free,
    costLine: 'Free.',
    summary: 'Remove a candidate from the shortlist; removed is false when they were not on it.',
    proposable: true,
    params: memberParams,
    load: loadProject,
    response: { kind: 'json', status: 200, data: memberRemoved, description: 'Whether they were removed' },
    async handler(ctx, { params, found }, { db, config }) {
      sendData(
        ctx,
        await removeMember(db, { workspaceId: authOf(ctx).workspace.id, projectId: found.project.id, baseUrl: config.publicBaseUrl }, params.candidateId),
      );
    },
  }),
  defineRoute({
    name: 'get_share_link',
    method: 'GET',
    path: '/projects/{projectId}/share-link',
    auth: 'shortlists:read',
    ...free,
    costLine: 'Free: the share link uses no credits.',
    summary: "The project's one public share link (made with the project) and how many people it shows now.",
    proposable: false,
    params: projectParams,
    load: loadProject,
    response: { kind: 'json', status: 200, data: shareLink, description: 'The share link' },
    async handler(ctx, { found: { project } }, { db, config }) {
      sendData(ctx, { project_id: project.id, url: shareUrl(config.appUrl, project.share_token), shortlisted: await shortlistCount(db, project.id) });
    },
  }),
];
