import { apiKeyRepository, type ApiKey } from '../db/api-key.repository';
import { creditLedgerRepository, type CreditBucket } from '../db/credit-ledger.repository';
import { workspaceRepository, type Workspace, type WorkspaceChanges } from '../db/workspace.repository';
import { DEFAULT_KEY_RATE_LIMIT, FUNDING_MODES, KEY_ENVIRONMENTS, type FundingMode, type KeyEnvironment } from '../domain/api-keys';
import { DEFAULT_PLAN, PLANS } from '../domain/plans';
import { ALL_SCOPES, isKnownScope, SCOPES } from '../domain/scopes';
import { isoTimestamp, onOff, oneOf, optionValue, parseArgs, requireOption, UsageError, uuidArg, wholeNumber } from './args';
import type { CliContext } from './command';

const str = optionValue;

async function findWorkspace(ctx: CliContext, id: string): Promise<Workspace> {
  const workspace = await workspaceRepository(ctx.db).find(uuidArg(id, 'workspace'));
  if (!workspace) throw new UsageError(`no workspace ${id}`);
  return workspace;
}

function keySummary(key: ApiKey) {
  return {
    id: key.id,
    workspace_id: key.workspace_id,
    name: key.name,
    key_hint: key.key_hint,
    scopes: key.scopes,
    environment: key.environment,
    funding_mode: key.funding_mode,
    rate_limit: key.rate_limit_per_minute,
    created_at: key.created_at.toISOString(),
    expires_at: key.expires_at?.toISOString() ?? null,
    revoked_at: key.revoked_at?.toISOString() ?? null,
    last_used_at: key.last_used_at?.toISOString() ?? null,
  };
}

export const adminCommands: Record<string, (argv: string[], ctx: CliContext) => Promise<void>> = {
  async 'workspaces create'(argv, ctx) {
    const args = parseArgs(argv, { values: ['name', 'plan', 'credits'], flags: ['json'] });
    const name = requireOption(args, 'name').trim();
    const planOption = str(args, 'plan') ?? DEFAULT_PLAN;
    const plan = planOption === 'none' ? null : oneOf(planOption, PLANS, 'plan');
    const credits = str(args, 'credits') === undefined ? 0 : wholeNumber(str(args, 'credits')!, 'credits', 0);
    const workspace = await workspaceRepository(ctx.db).create({ name, plan, credits });
    if (args.options.json) ctx.out(JSON.stringify({ id: workspace.id, name: workspace.name, plan: workspace.plan, credits }));
    else ctx.out(`Created workspace ${workspace.id} "${workspace.name}" (plan ${workspace.plan ?? 'none'}, ${credits} credits)`);
  },

  async 'workspaces update'(argv, ctx) {
    const args = parseArgs(argv, {
      values: ['api-access', 'frozen', 'plan', 'plan-active', 'rate-limit', 'max-concurrent-searches', 'name'],
      flags: ['json'],
      positionals: 1,
    });
    await findWorkspace(ctx, args.positionals[0]);
    const changes: WorkspaceChanges = {};
    if (str(args, 'api-access')) changes.api_access_enabled = onOff(str(args, 'api-access')!, 'api-access');
    if (str(args, 'frozen')) changes.frozen = onOff(str(args, 'frozen')!, 'frozen');
    if (str(args, 'plan')) changes.plan = str(args, 'plan') === 'none' ? null : oneOf(str(args, 'plan')!, PLANS, 'plan');
    if (str(args, 'plan-active')) changes.plan_active = onOff(str(args, 'plan-active')!, 'plan-active');
    if (str(args, 'rate-limit')) changes.rate_limit_per_minute = wholeNumber(str(args, 'rate-limit')!, 'rate-limit');
    if (str(args, 'max-concurrent-searches')) changes.max_concurrent_searches = wholeNumber(str(args, 'max-concurrent-searches')!, 'max-concurrent-searches');
    if (str(args, 'name')) changes.name = str(args, 'name')!.trim();
    if (Object.keys(changes).length === 0)
      throw new UsageError('nothing to update: give --api-access, --frozen, --plan, --plan-active, --rate-limit, --max-concurrent-searches or --name');
    const updated = (await workspaceRepository(ctx.db).update(args.positionals[0], changes))!;
    const view = {
      id: updated.id,
      name: updated.name,
      plan: updated.plan,
      plan_active: updated.plan_active,
      api_access: updated.api_access_enabled,
      frozen: updated.frozen,
      rate_limit: updated.rate_limit_per_minute,
      max_concurrent_searches: updated.max_concurrent_searches,
    };
    ctx.out(
      args.options.json
        ? JSON.stringify(view)
        : `Updated workspace ${updated.id}: ${Object.entries(view)
            .slice(1)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`,
    );
  },

  async 'keys create'(argv, ctx) {
    const args = parseArgs(argv, { values: ['workspace', 'name', 'scopes', 'funding', 'env', 'rate-limit', 'expires-at'], flags: ['json'] });
    const workspace = await findWorkspace(ctx, requireOption(args, 'workspace'));
    const name = requireOption(args, 'name').trim();
    const scopes = [
      ...new Set(
        requireOption(args, 'scopes')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = scopes.filter((s) => !isKnownScope(s));
    if (scopes.length === 0 || unknown.length)
      throw new UsageError(`unknown scope(s) ${unknown.join(', ') || '(none given)'}; known: ${ALL_SCOPES}, ${SCOPES.join(', ')}`);
    const funding: FundingMode = oneOf(str(args, 'funding') ?? 'workspace', FUNDING_MODES, 'funding');
    const environment: KeyEnvironment = oneOf(str(args, 'env') ?? 'live', KEY_ENVIRONMENTS, 'env');
    const rateLimit = str(args, 'rate-limit') ? wholeNumber(str(args, 'rate-limit')!, 'rate-limit') : DEFAULT_KEY_RATE_LIMIT;
    const expiresAt = str(args, 'expires-at') ? isoTimestamp(str(args, 'expires-at')!, 'expires-at') : null;
    const { key, raw } = await apiKeyRepository(ctx.db).issue({
      workspaceId: workspace.id,
      name,
      scopes,
      fundingMode: funding,
      environment,
      rateLimitPerMinute: rateLimit,
      expiresAt,
    });
    if (args.options.json) {
      ctx.out(
        JSON.stringify({
          id: key.id,
          key: raw,
          workspace_id: key.workspace_id,
          name: key.name,
          scopes: key.scopes,
          environment: key.environment,
          funding_mode: key.funding_mode,
          rate_limit: key.rate_limit_per_minute,
        }),
      );
    } else {
      ctx.out(`Created key ${key.id} "${key.name}" for workspace ${workspace.id} (scopes ${scopes.join(',')}, ${environment}, ${funding}, ${rateLimit}/min)`);
      ctx.out(`API key (shown once, store it now): ${raw}`);
    }
  },

  async 'keys list'(argv, ctx) {
    const args = parseArgs(argv, { values: ['workspace'], flags: ['json'] });
    const workspace = await findWorkspace(ctx, requireOption(args, 'workspace'));
    const keys = (await apiKeyRepository(ctx.db).listForWorkspace(workspace.id)).map(keySummary);
    if (args.options.json) return ctx.out(JSON.stringify({ workspace_id: workspace.id, keys }));
    if (keys.length === 0) return ctx.out(`workspace ${workspace.id} has no keys`);
    for (const k of keys) {
      const state = k.revoked_at ? `revoked ${k.revoked_at}` : k.expires_at && new Date(k.expires_at) <= new Date() ? `expired ${k.expires_at}` : 'active';
      ctx.out(
        `${k.id}  ${k.key_hint}  ${k.name}  [${k.scopes.join(',')}]  ${k.environment}/${k.funding_mode}  ${k.rate_limit}/min  ${state}  last used ${k.last_used_at ?? 'never'}`,
      );
    }
  },

  async 'keys revoke'(argv, ctx) {
    const args = parseArgs(argv, { flags: ['json'], positionals: 1 });
    const id = uuidArg(args.positionals[0], 'key');
    const key = await apiKeyRepository(ctx.db).revoke(id);
    if (!key) throw new UsageError(`no key ${id}`);
    ctx.out(args.options.json ? JSON.stringify(keySummary(key)) : `Revoked key ${key.id} (${key.key_hint}) at ${key.revoked_at!.toISOString()}`);
  },

  async 'credits grant'(argv, ctx) {
    const args = parseArgs(argv, { values: ['workspace', 'amount', 'bucket'], flags: ['json'] });
    const workspace = await findWorkspace(ctx, requireOption(args, 'workspace'));
    const amount = wholeNumber(requireOption(args, 'amount'), 'amount');
    const bucket: CreditBucket = oneOf(str(args, 'bucket') ?? 'workspace', FUNDING_MODES, 'bucket');
    const ledger = creditLedgerRepository(ctx.db);
    await ledger.append({ workspaceId: workspace.id, bucket, delta: amount, reason: 'grant:operator' });
    const balance = await ledger.balance(workspace.id, bucket);
    ctx.out(
      args.options.json
        ? JSON.stringify({ workspace_id: workspace.id, bucket, granted: amount, balance })
        : `Granted ${amount} credits to ${bucket} bucket of ${workspace.id}; balance ${balance}`,
    );
  },
};
