import { z } from 'zod';
import { projectRepository, type Project } from '../../src/db/project.repository';
import type { Db } from '../../src/db/knex';
import { AppError, notFound } from '../../src/domain/errors';
import { isUuid } from '../../src/domain/ids';
import { authOf } from '../context';
import { sendData } from '../respond';
import { defineRoutes } from '../route-def';

export const PROJECT_NAME_MAX = 120;


export const projectResource = (p: Project) => ({ id: p.id, name: p.name, created_at: p.created_at.toISOString() });

export const createProjectBody = z
  .object({ name: z.string().describe(`1 to ${PROJECT_NAME_MAX} characters`) })
  .strict()
  .describe('A new project');

/** The project of the caller's workspace, or 404 project_not_found (also for malformed ids). */
export async function findProjectOr404(db: Db, workspaceId: string, projectId: string): Promise<Project> {
  const project = isUuid(projectId) ? await projectRepository(db).findInWorkspace(workspaceId, projectId) : undefined;
  if (!project) throw notFound('project_not_found', 'Project');
  return project;
}

/** invalid_name for a missing, non-string, blank or over-long name (counted in characters, not bytes). */
function validName(body: unknown): string {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('invalid_request', 400, 'Send a JSON object with a name');
  }
  const unknown = Object.keys(body).filter((k) => k !== 'name');
  if (unknown.length) throw new AppError('invalid_request', 400, `Unknown field(s): ${unknown.join(', ')}`, { unknown_fields: unknown });
  const name = (body as { name?: unknown }).name;
  const length = typeof name === 'string' ? [...name].length : 0;
  if (typeof name !== 'string' || name.trim() === '' || length > PROJECT_NAME_MAX) {
    throw new AppError('invalid_name', 400, `name must be a non-empty string of at most ${PROJECT_NAME_MAX} characters`, {
      max_length: PROJECT_NAME_MAX,
      ...(typeof name === 'string' ? { length } : {}),
    });
  }
  return name;
}

export const projectRoutes = defineRoutes([
  {
    name: 'create_project',
    method: 'POST',
    path: '/projects',
    auth: 'searches:write',
    cost: 'free',
    costLine: 'Free: creating a project uses no credits.',
    summary: 'Create a project; each call creates a new one (not idempotent).',
    proposable: true,
    body: createProjectBody,
    async handler(ctx, { db }) {
      const name = validName(ctx.state.body);
      const project = await projectRepository(db).create(authOf(ctx).workspace.id, name);
      sendData(ctx, projectResource(project), { status: 201 });
    },
  },
  {
    name: 'list_projects',
    method: 'GET',
    path: '/projects',
    auth: 'searches:read',
    cost: 'free',
    costLine: 'Free: reads use no credits.',
    summary: 'The 200 most recently created projects, newest first; meta.total counts all.',
    proposable: false,
    async handler(ctx, { db }) {
      const { projects, total } = await projectRepository(db).listRecent(authOf(ctx).workspace.id);
      sendData(ctx, projects.map(projectResource), { total });
    },
  },
  {
    name: 'get_project',
    method: 'GET',
    path: '/projects/{projectId}',
    auth: 'searches:read',
    cost: 'free',
    costLine: 'Free: reads use no credits.',
    summary: 'One project.',
    proposable: false,
    async handler(ctx, { db }) {
      const project = await findProjectOr404(db, authOf(ctx).workspace.id, ctx.params.projectId);
      sendData(ctx, projectResource(project));
    },
  },
]);
