import { z } from 'zod';
import { campaignJson } from '../../src/campaigns/campaigns.presenter';
import { createCampaignBody } from '../../src/campaigns/campaigns.schemas';
import { createCampaign, launchCampaign, listCampaigns, publishCampaign } from '../../src/campaigns/campaigns.service';
import { credentialJson } from '../../src/credentials/credentials.presenter';
import { createCredentialBody } from '../../src/credentials/credentials.schemas';
import { createCredential, retireCredential, verifyCredential } from '../../src/credentials/credentials.service';
import { credentialRepository } from '../../src/db/credential.repository';
import { AppError } from '../../src/domain/errors';
import { isUuid } from '../../src/domain/ids';
import { intakeBody } from '../../src/intake/intake.schemas';
import { runIntake } from '../../src/intake/intake.service';
import { createScanBody } from '../../src/scans/scans.schemas';
import { launchScan, listScans } from '../../src/scans/scans.service';
import { describeMe, resolveSession, signIn, signOut, switchWorkspace } from '../../src/users/users.service';
import { sessionOpenApi } from './session-openapi';
import { sessionRoute, type SessionRouteDef } from './session-route-def';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from './session.middleware';

const signInBody = z.strictObject({
  email: z.string({ error: 'email is required' }).trim().min(3).max(320).describe('The user\'s email'),
  password: z.string({ error: 'password is required' }).min(1).max(1024).describe('The user\'s password'),
});
const switchBody = z.strictObject({ workspace_id: z.string().describe('A workspace the user is a member of') });

/** Ids in paths: a malformed id is "not found", like another workspace's record. */
const idParam = (value: string, what: string) => {
  if (!isUuid(value)) throw new AppError('not_found', 404, `${what} not found`);
  return value;
};

/** Every session-API route (DESIGN.md §10). Registers the session router and its OpenAPI document. */
export const sessionRoutes: SessionRouteDef[] = [
  sessionRoute({
    name: 'sign_in',
    method: 'POST',
    path: '/auth/sign-in',
    access: 'public',
    summary: 'Sign in with email and password; sets the `sid` session cookie. 10 failures per email in 15 minutes: 429.',
    body: signInBody,
    responds: '200 `{ok: true}` and Set-Cookie `sid`; 401 `Invalid email or password`',
    async handler({ ctx, deps, body }) {
      const { token, expiresAt } = await signIn(deps.db, body.email, body.password);
      setSessionCookie(ctx, deps.config, token, expiresAt);
      return { body: { ok: true } };
    },
  }),
  sessionRoute({
    name: 'sign_out',
    method: 'POST',
    path: '/auth/sign-out',
    access: 'viewer',
    allowedWhenFrozen: true,
    summary: 'Ends the session and clears the cookie.',
    responds: '200 `{ok: true}`',
    async handler({ ctx, deps, session }) {
      await signOut(deps.db, session.session.id);
      clearSessionCookie(ctx, deps.config);
      return { body: { ok: true } };
    },
  }),
  sessionRoute({
    name: 'get_me',
    method: 'GET',
    path: '/me',
    access: 'viewer',
    allowedWhenFrozen: true,
    summary: 'The signed-in user, the active workspace, the role there and every workspace of the user.',
    responds: '200 `{user:{id,email}, workspace:{id,name,plan,frozen}, role, workspaces:[{id,name,role}]}`',
    async handler({ deps, session }) {
      return { body: await describeMe(deps.db, session) };
    },
  }),
  sessionRoute({
    name: 'switch_workspace',
    method: 'POST',
    path: '/me/workspace',
    access: 'viewer',
    // Part of /api/me: a member of a frozen workspace must be able to move to another one.
    allowedWhenFrozen: true,
    summary: 'Switches the session\'s active workspace to another workspace of the user.',
    body: switchBody,
    responds: '200 the new /api/me answer; 404 for a workspace the user is not a member of',
    async handler({ ctx, deps, session, body }) {
      await switchWorkspace(deps.db, session, idParam(body.workspace_id, 'Workspace'));
      const switched = await resolveSession(deps.db, ctx.cookies.get(SESSION_COOKIE)!);
      if (!switched) throw new AppError(null, 401, 'Sign in required');
      return { body: await describeMe(deps.db, switched) };
    },
  }),
  sessionRoute({
    name: 'list_credentials',
    method: 'GET',
    path: '/admin/credentials',
    access: 'admin',
    summary: 'The workspace\'s active provider credentials; keys are never returned, only a hint.',
    responds: '200 `{credentials: [credential]}`',
    async handler({ deps, session }) {
      const rows = await credentialRepository(deps.db).listActive(session.workspace.id);
      return { body: { credentials: rows.map(credentialJson) } };
    },
  }),
  sessionRoute({
    name: 'create_credential',
    method: 'POST',
    path: '/admin/credentials',
    access: 'admin',
    summary: 'Stores a provider key encrypted; an active credential with the same provider and label is deactivated first.',
    body: createCredentialBody,
    responds: '200 `{ok: true, credential}`',
    async handler({ deps, session, body }) {
      const row = await createCredential(deps.db, deps.config, session.workspace.id, body);
      return { body: { ok: true, credential: credentialJson(row) } };
    },
  }),
  sessionRoute({
    name: 'delete_credential',
    method: 'DELETE',
    path: '/admin/credentials/{id}',
    access: 'admin',
    summary: 'Deactivates a credential (kept for audit with `retired_at`).',
    responds: '200 `{ok: true}`; 409 when already inactive',
    async handler({ deps, session, params }) {
      await retireCredential(deps.db, session.workspace.id, idParam(params.id, 'Credential'));
      return { body: { ok: true } };
    },
  }),
  sessionRoute({
    name: 'verify_credential',
    method: 'POST',
    path: '/admin/credentials/{id}/verify',
    access: 'admin',
    summary: 'One cheap call to the provider with the key; sets `verified_at` or `verify_error`.',
    responds: '200 `{ok, credential}`',
    async handler({ deps, session, params }) {
      const row = await verifyCredential(deps.db, deps.config, session.workspace.id, idParam(params.id, 'Credential'));
      return { body: { ok: row.verify_error === null, credential: credentialJson(row) } };
    },
  }),
  sessionRoute({
    name: 'intake',
    method: 'POST',
    path: '/intake',
    access: 'operator',
    summary: 'Free text → criteria through the language model; never scores, never calls a sourcing provider.',
    body: intakeBody,
    responds: '200 `{criteria, entityCoverage, familyUnresolved, familySuggestions, rawToolInput}`; 424 `llm_not_configured`; 502 `extraction_failed`',
    async handler({ deps, session, body }) {
      return { body: await runIntake(deps.db, deps.config, session.workspace.id, body.rawInput) };
    },
  }),
  sessionRoute({
    name: 'list_scans',
    method: 'GET',
    path: '/scans',
    access: 'viewer',
    summary: 'The workspace\'s newest 200 searches of all projects, with progress.',
    responds: '200 `{scans: [search]}`',
    async handler({ deps, session }) {
      return { body: { scans: await listScans(deps.db, deps.config, session.workspace.id) } };
    },
  }),
  sessionRoute({
    name: 'create_scan',
    method: 'POST',
    path: '/scans',
    access: 'operator',
    summary: 'Launches a search (Idempotency-Key header required); the same credit, limit and idempotency rules as the key API launch.',
    body: createScanBody,
    responds: '201 `{scan}`; 200 with `reused: true` on a replay',
    async handler({ ctx, deps, session, body }) {
      const { scan, reused } = await launchScan(deps.db, deps.temporal, deps.config, session.workspace, body, ctx.get('Idempotency-Key') || undefined);
      return { status: reused ? 200 : 201, body: { scan } };
    },
  }),
  sessionRoute({
    name: 'list_campaigns',
    method: 'GET',
    path: '/campaigns',
    access: 'viewer',
    summary: 'The workspace\'s newest 200 campaigns.',
    responds: '200 `{campaigns: [campaign]}`',
    async handler({ deps, session }) {
      return { body: { campaigns: (await listCampaigns(deps.db, session.workspace.id)).map(campaignJson) } };
    },
  }),
  sessionRoute({
    name: 'create_campaign',
    method: 'POST',
    path: '/campaigns',
    access: 'operator',
    summary: 'Creates a campaign in state draft.',
    body: createCampaignBody,
    responds: '201 `{campaign}`',
    async handler({ deps, session, body }) {
      return { status: 201, body: { campaign: campaignJson(await createCampaign(deps.db, session.workspace.id, session.user.id, body)) } };
    },
  }),
  sessionRoute({
    name: 'publish_campaign',
    method: 'POST',
    path: '/campaigns/{id}/publish',
    access: 'operator',
    summary: 'draft → awaiting_launch; 409 from any other state.',
    responds: '200 `{campaign}`',
    async handler({ deps, session, params }) {
      return { body: { campaign: campaignJson(await publishCampaign(deps.db, session.workspace.id, params.id)) } };
    },
  }),
  sessionRoute({
    name: 'launch_campaign',
    method: 'POST',
    path: '/campaigns/{id}/launch',
    access: 'operator',
    summary: 'awaiting_launch → launched; 409 from any other state; 424 when the channel\'s outreach is not configured.',
    responds: '200 `{campaign}`; 424 `emailoutreach_not_configured` / `socialoutreach_not_configured`',
    async handler({ deps, session, params }) {
      return { body: { campaign: campaignJson(await launchCampaign(deps.db, deps.config, session.workspace.id, params.id)) } };
    },
  }),
  sessionRoute({
    name: 'session_openapi',
    method: 'GET',
    path: '/openapi.json',
    access: 'public',
    summary: 'This document: the session API in OpenAPI 3.1.',
    responds: '200 the OpenAPI document',
    async handler({ deps }) {
      return { body: sessionOpenApi(sessionRoutes, deps.config) };
    },
  }),
];
