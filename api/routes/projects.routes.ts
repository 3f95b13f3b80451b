import { z } from 'zod';
import { projectRepository } from '../../src/db/project.repository';
import { projectResource } from '../../src/projects/projects.presenter';
import { createProjectBody, project, projectParams } from '../../src/projects/projects.schemas';
import { authOf } from '../context';
import { loadProject } from '../resource-loaders';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

export const projectRoutes = [
  defineRoute({
    name: 'create_project',
    method: 'POST',
    path: '/projects',
    auth: 'searches:write',
    cost: 'free',
    costLine: 'Free: creating a project uses no credits.',
    summary: 'Create a project; each call creates a new one (not idempotent).',
    tag: 'Projects',
    proposable: true,
    body: createProjectBody,
    invalidCode: ({ section, path }) => (section === 'body' && path[0] === 'name' ? 'invalid_name' : undefined),
    invalidCodes: ['invalid_name'],
    example: { name: 'Backend hiring' },
    response: { kind: 'json', status: 201, data: project, description: 'The new project' },
    async handler(ctx, { body }, { db }) {
      const created = await projectRepository(db).create(authOf(ctx).workspace.id, body.name);
      sendData(ctx, projectResource(created), { status: 201 });
    },
  }),
  defineRoute({
    name: 'list_projects',
    method: 'GET',
    path: '/projects',
    auth: 'searches:read',
    cost: 'free',
    summary: 'The 200 most recently created projects, newest first; meta.total counts all.',
    tag: 'Projects',
    proposable: false,
    response: { kind: 'json', status: 200, data: z.array(project), total: true, description: 'Projects, newest first' },
    async handler(ctx, _input, { db }) {
      const { projects, total } = await projectRepository(db).listRecent(authOf(ctx).workspace.id);
      sendData(ctx, projects.map(projectResource), { total });
    },
  }),
  defineRoute({
    name: 'get_project',
    method: 'GET',
    path: '/projects/{projectId}',
    auth: 'searches:read',
    cost: 'free',
    summary: 'One project.',
    tag: 'Projects',
    proposable: false,
    params: projectParams,
    load: loadProject,
    response: { kind: 'json', status: 200, data: project, description: 'The project' },
    async handler(ctx, { found }) {
      sendData(ctx, projectResource(found.project));
    },
  }),
];
