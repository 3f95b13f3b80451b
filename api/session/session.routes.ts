import { z } from 'zod';
import { campaignJson } from '../../src/campaigns/campaigns.presenter';
import { campaignList, campaignParams, campaignReply, createCampaignBody } from '../../src/campaigns/campaigns.schemas';
import { createCampaign, launchCampaign, listCampaigns, publishCampaign } from '../../src/campaigns/campaigns.service';
import { credentialJson } from '../../src/credentials/credentials.presenter';
import { createCredentialBody, credentialList, credentialParams, credentialSaved, credentialVerified } from '../../src/credentials/credentials.schemas';
import { createCredential, retireCredential, verifyCredential } from '../../src/credentials/credentials.service';
import { credentialRepository } from '../../src/db/credential.repository';
import { AppError } from '../../src/domain/errors';
import { isUuid } from '../../src/domain/ids';
import { intakeBody, intakeResult } from '../../src/intake/intake.schemas';
import { readBriefBuiltin, runIntake } from '../../src/intake/intake.service';
import { createScanBody, scanLaunched, scanList } from '../../src/scans/scans.schemas';
import { launchScan, listScans } from '../../src/scans/scans.service';
import { LAUNCH_ERRORS, LAUNCH_INVALID_CODES, launchHeaders, launchInvalidCode } from '../../src/searches/searches.schemas';
import { me, ok, signInBody, switchWorkspaceBody } from '../../src/users/users.schemas';
import { describeMe, resolveSession, signIn, signOut, switchWorkspace } from '../../src/users/users.service';
import { briefReaderOf } from '../context';
import { sessionOpenApiDocument } from './session-openapi';
import { defineSessionRoute, type SessionRouteDef } from './session-route-def';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from './session.middleware';

/** Every session-API route (DESIGN.md §10). Registers the session router and its OpenAPI document. */
export const sessionRoutes: SessionRouteDef[] = [
  defineSessionRoute({
    name: 'sign_in',
    method: 'POST',
    path: '/auth/sign-in',
    access: 'public',
    summary:
      'Sign in with email and password; sets the `sid` session cookie. Failed sign-ins are limited within 15 minutes: 10 per email, and the configured ceilings per client address and across all accounts (429 with Retry-After).',
    body: signInBody,
    errors: { codes: ['too_many_attempts', 'no_workspace'], plain: [401] },
    example: { email: 'ada@example.com', password: 'correct horse battery staple' },
    response: { status: 200, data: ok, description: '`{ok: true}` and Set-Cookie `sid`; 401 `Invalid email or password`' },
    async handler(ctx, { body }, { db, config }) {
      const { token, expiresAt } = await signIn(db, body.email, body.password, { ip: ctx.ip, limits: config.signIn });
      setSessionCookie(ctx, config, token, expiresAt);
      return { body: { ok: true } };
    },
  }),
  defineSessionRoute({
    name: 'sign_out',
    method: 'POST',
    path: '/auth/sign-out',
    access: 'viewer',
    allowedWhenFrozen: true,
    summary: 'Ends the session and clears the cookie.',
    response: { status: 200, data: ok, description: '`{ok: true}`' },
    async handler(ctx, { session }, { db, config }) {
      await signOut(db, session.session.id);
      clearSessionCookie(ctx, config);
      return { body: { ok: true } };
    },
  }),
  defineSessionRoute({
    name: 'get_me',
    method: 'GET',
    path: '/me',
    access: 'viewer',
    allowedWhenFrozen: true,
    summary: 'The signed-in user, the active workspace, the role there and every workspace of the user.',
    response: { status: 200, data: me, description: 'The signed-in user and workspace' },
    async handler(_ctx, { session }, { db }) {
      return { body: await describeMe(db, session) };
    },
  }),
  defineSessionRoute({
    name: 'switch_workspace',
    method: 'POST',
    path: '/me/workspace',
    access: 'viewer',
    // Part of /api/me: a member of a frozen workspace must be able to move to another one.
    allowedWhenFrozen: true,
    summary: "Switches the session's active workspace to another workspace of the user.",
    body: switchWorkspaceBody,
    errors: { codes: ['workspace_not_found'] },
    example: { workspace_id: '0b6f0b4e-4f5e-4c59-9a39-2f0d8e1c7a11' },
    response: { status: 200, data: me, description: 'The new /api/me answer; 404 for a workspace the user is not a member of' },
    async handler(ctx, { body, session }, { db }) {
      if (!isUuid(body.workspace_id)) throw new AppError('workspace_not_found', 404, 'Workspace not found');
      await switchWorkspace(db, session, body.workspace_id);
      const switched = await resolveSession(db, ctx.cookies.get(SESSION_COOKIE)!);
      if (!switched) throw new AppError(null, 401, 'Sign in required');
      return { body: await describeMe(db, switched) };
    },
  }),
  defineSessionRoute({
    name: 'list_credentials',
    method: 'GET',
    path: '/admin/credentials',
    access: 'admin',
    summary: "The workspace's active provider credentials; keys are never returned, only a hint.",
    response: { status: 200, data: credentialList, description: 'The active credentials' },
    async handler(_ctx, { session }, { db }) {
      const rows = await credentialRepository(db).listActive(session.workspace.id);
      return { body: { credentials: rows.map(credentialJson) } };
    },
  }),
  defineSessionRoute({
    name: 'create_credential',
    method: 'POST',
    path: '/admin/credentials',
    access: 'admin',
    summary: 'Stores a provider key encrypted; an active credential with the same provider and label is deactivated first.',
    body: createCredentialBody,
    example: { provider: 'openai', apiKey: 'sk-…', label: 'default' },
    response: { status: 200, data: credentialSaved, description: '`{ok: true, credential}`' },
    async handler(_ctx, { body, session }, { db, config }) {
      const row = await createCredential(db, config, session.workspace.id, body);
      return { body: { ok: true, credential: credentialJson(row) } };
    },
  }),
  defineSessionRoute({
    name: 'delete_credential',
    method: 'DELETE',
    path: '/admin/credentials/{id}',
    access: 'admin',
    summary: 'Deactivates a credential (kept for audit with `retired_at`).',
    params: credentialParams,
    resource: 'Credential',
    errors: { codes: ['credential_inactive'] },
    response: { status: 200, data: ok, description: '`{ok: true}`; 409 when already inactive' },
    async handler(_ctx, { params, session }, { db }) {
      await retireCredential(db, session.workspace.id, params.id);
      return { body: { ok: true } };
    },
  }),
  defineSessionRoute({
    name: 'verify_credential',
    method: 'POST',
    path: '/admin/credentials/{id}/verify',
    access: 'admin',
    summary: 'One cheap call to the provider with the key; sets `verified_at` or `verify_error`.',
    params: credentialParams,
    resource: 'Credential',
    errors: { codes: ['credential_inactive'] },
    response: { status: 200, data: credentialVerified, description: '`{ok, credential}`' },
    async handler(_ctx, { params, session }, { db, config }) {
      const row = await verifyCredential(db, config, session.workspace.id, params.id);
      return { body: { ok: row.verify_error === null, credential: credentialJson(row) } };
    },
  }),
  defineSessionRoute({
    name: 'intake',
    method: 'POST',
    path: '/intake',
    access: 'operator',
    summary:
      'Free text → criteria through the language model (reader "llm"); 424 llm_not_configured without a key (the app then uses POST /api/intake/builtin). Never scores, never calls a sourcing provider.',
    body: intakeBody,
    errors: { codes: ['llm_not_configured', 'extraction_failed'], plain: [502] },
    example: { rawInput: 'Senior backend engineer in Berlin, 5+ years of Go and PostgreSQL, fintech' },
    response: { status: 200, data: intakeResult, description: 'The criteria found, chip coverage and family suggestions' },
    async handler(_ctx, { body, session }, { db, config }) {
      return { body: await runIntake(db, config, session.workspace.id, body.rawInput) };
    },
  }),
  defineSessionRoute({
    name: 'intake_builtin',
    method: 'POST',
    path: '/intake/builtin',
    access: 'operator',
    summary:
      'Free text → criteria through the built-in reader (the key API\'s jd_text reader, no language model): intake\'s answer with reader "builtin"; a brief with nothing usable answers empty criteria. Never scores, never calls a provider.',
    body: intakeBody,
    errors: { codes: ['brief_reader_busy'], plain: [502] },
    example: { rawInput: 'Senior backend engineer in Berlin, 5+ years of Go and PostgreSQL, fintech' },
    response: {
      status: 200,
      data: intakeResult,
      description: 'The criteria found, chip coverage and family suggestions; 502 when the role families cannot be loaded',
    },
    async handler(_ctx, { body, session }, deps) {
      return { body: await readBriefBuiltin(deps.db, briefReaderOf(deps), session.workspace.id, body.rawInput) };
    },
  }),
  defineSessionRoute({
    name: 'list_scans',
    method: 'GET',
    path: '/scans',
    access: 'viewer',
    summary: "The workspace's newest 200 searches of all projects, with progress.",
    response: { status: 200, data: scanList, description: 'The newest searches' },
    async handler(_ctx, { session }, { db, config }) {
      return { body: { scans: await listScans(db, config, session.workspace.id) } };
    },
  }),
  defineSessionRoute({
    name: 'create_scan',
    method: 'POST',
    path: '/scans',
    access: 'operator',
    summary: 'Launches a search (Idempotency-Key header required); the same body schema, credit, limit and idempotency rules as the key API launch.',
    headers: launchHeaders,
    body: createScanBody,
    invalidCode: launchInvalidCode,
    invalidCodes: LAUNCH_INVALID_CODES,
    errors: { codes: ['project_not_found', ...LAUNCH_ERRORS] },
    example: { project_id: '0b6f0b4e-4f5e-4c59-9a39-2f0d8e1c7a11', criteria: { family: 'software_engineering', metro: 'berlin' } },
    response: { status: [201, 200], data: scanLaunched, description: 'The new search (201), or the first one for an idempotent replay (200, reused: true)' },
    async handler(_ctx, { headers, body, session }, deps) {
      const { scan, reused } = await launchScan(deps.db, deps.temporal, deps.config, briefReaderOf(deps), session.workspace, body, headers['Idempotency-Key']);
      return { status: reused ? 200 : 201, body: { scan } };
    },
  }),
  defineSessionRoute({
    name: 'list_campaigns',
    method: 'GET',
    path: '/campaigns',
    access: 'viewer',
    summary: "The workspace's newest 200 campaigns.",
    response: { status: 200, data: campaignList, description: 'The newest campaigns' },
    async handler(_ctx, { session }, { db }) {
      return { body: { campaigns: (await listCampaigns(db, session.workspace.id)).map(campaignJson) } };
    },
  }),
  defineSessionRoute({
    name: 'create_campaign',
    method: 'POST',
    path: '/campaigns',
    access: 'operator',
    summary: 'Creates a campaign in state draft.',
    body: createCampaignBody,
    errors: { codes: ['project_not_found'] },
    example: { name: 'Backend engineers, Berlin', channel: 'email' },
    response: { status: 201, data: campaignReply, description: 'The new campaign' },
    async handler(_ctx, { body, session }, { db }) {
      return { body: { campaign: campaignJson(await createCampaign(db, session.workspace.id, session.user.id, body)) } };
    },
  }),
  defineSessionRoute({
    name: 'publish_campaign',
    method: 'POST',
    path: '/campaigns/{id}/publish',
    access: 'operator',
    summary: 'draft → awaiting_launch; 409 from any other state.',
    params: campaignParams,
    resource: 'Campaign',
    errors: { plain: [409] },
    response: { status: 200, data: campaignReply, description: 'The campaign, awaiting launch' },
    async handler(_ctx, { params, session }, { db }) {
      return { body: { campaign: campaignJson(await publishCampaign(db, session.workspace.id, params.id)) } };
    },
  }),
  defineSessionRoute({
    name: 'launch_campaign',
    method: 'POST',
    path: '/campaigns/{id}/launch',
    access: 'operator',
    summary: "awaiting_launch → launched; 409 from any other state; 424 when the channel's outreach is not configured.",
    params: campaignParams,
    resource: 'Campaign',
    errors: { codes: ['emailoutreach_not_configured', 'socialoutreach_not_configured'], plain: [409] },
    response: { status: 200, data: campaignReply, description: 'The launched campaign' },
    async handler(_ctx, { params, session }, { db, config }) {
      return { body: { campaign: campaignJson(await launchCampaign(db, config, session.workspace.id, params.id)) } };
    },
  }),
  defineSessionRoute({
    name: 'session_openapi',
    method: 'GET',
    path: '/openapi.json',
    access: 'public',
    summary: 'This document: the session API in OpenAPI 3.1.',
    response: { status: 200, data: z.record(z.string(), z.unknown()), description: 'The OpenAPI document' },
    async handler(_ctx, _input, { config }) {
      return { body: sessionOpenApiDocument(sessionRoutes, config) };
    },
  }),
];
