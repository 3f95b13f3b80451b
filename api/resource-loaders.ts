import type { Db } from '../src/db/knex';
import { projectRepository, type Project } from '../src/db/project.repository';
import { searchRepository, type SearchRow } from '../src/db/search.repository';
import { notFound } from '../src/domain/errors';
import { authOf, type ApiContext } from './context';

/**
 * The `load` of routes under a resource path (defineRoute): the caller's workspace's record for
 * the path id, or the resource's 404. Shared by the route files of every resource beneath it.
 */

/** The project of the caller's workspace (the id is already a uuid), or 404 project_not_found. */
export async function findProjectOr404(db: Db, workspaceId: string, projectId: string): Promise<Project> {
  const found = await projectRepository(db).findInWorkspace(workspaceId, projectId);
  if (!found) throw notFound('project_not_found', 'Project');
  return found;
}

/** `load` of every route under /projects/{projectId}. */
export const loadProject = async (ctx: ApiContext, { db }: { db: Db }, params: { projectId: string }) => ({
  project: await findProjectOr404(db, authOf(ctx).workspace.id, params.projectId),
});

/** The search of the caller's workspace (the id is already a uuid), or 404 search_not_found. */
export async function findSearchOr404(db: Db, workspaceId: string, searchId: string): Promise<SearchRow> {
  const found = await searchRepository(db).findInWorkspace(workspaceId, searchId);
  if (!found) throw notFound('search_not_found', 'Search');
  return found;
}

/** `load` of every route under /searches/{searchId}. */
export const loadSearch = async (ctx: ApiContext, { db }: { db: Db }, params: { searchId: string }) => ({
  search: await findSearchOr404(db, authOf(ctx).workspace.id, params.searchId),
});
