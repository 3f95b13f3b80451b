import { Option } from 'commander';
import { apiKeyRepository, type ApiKey } from '../db/api-key.repository';
import { creditLedgerRepository, type CreditBucket } from '../db/credit-ledger.repository';
import { workspaceRepository, type Workspace, type WorkspaceChanges } from '../db/workspace.repository';
import { DEFAULT_KEY_RATE_LIMIT, FUNDING_MODES, KEY_ENVIRONMENTS, type FundingMode, type KeyEnvironment } from '../domain/api-keys';
import { DEFAULT_PLAN, PLANS } from '../domain/plans';
import { ALL_SCOPES, isKnownScope, SCOPES } from '../domain/scopes';
import { commaList, isoTimestamp, nonBlank, UsageError, uuid, wholeNumber } from './args';
import type { CliContext, RegisterCommands } from './command';

/** The workspace of a `--workspace` option; a usage error when there is none. */
export async function findWorkspace(ctx: CliContext, id: string): Promise<Workspace> {
  const workspace = await workspaceRepository(ctx.db).find(id);
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

const PLAN_CHOICES = [...PLANS, 'none'] as const;
const planOf = (value: string) => (value === 'none' ? null : (value as (typeof PLANS)[number]));
const onOff = () => ['on', 'off'];
const jsonOption = () => new Option('--json', 'print one JSON object');

export const registerAdminCommands: RegisterCommands = (program, host) => {
  const workspaces = program.command('workspaces').description('create and change workspaces');
  workspaces
    .command('create')
    .description('create a workspace with an opening credit grant')
    .requiredOption('--name <name>', 'workspace name', nonBlank)
    .addOption(new Option('--plan <plan>', 'plan').choices(PLAN_CHOICES).default(DEFAULT_PLAN))
    .option('--credits <n>', 'opening credits of the workspace bucket', wholeNumber(0), 0)
    .addOption(jsonOption())
    .action(
      host.action<{ name: string; plan: string; credits: number; json?: boolean }>(async (ctx, opts) => {
        const workspace = await workspaceRepository(ctx.db).create({ name: opts.name, plan: planOf(opts.plan), credits: opts.credits });
        if (opts.json) ctx.out(JSON.stringify({ id: workspace.id, name: workspace.name, plan: workspace.plan, credits: opts.credits }));
        else ctx.out(`Created workspace ${workspace.id} "${workspace.name}" (plan ${workspace.plan ?? 'none'}, ${opts.credits} credits)`);
      }),
    );

  workspaces
    .command('update')
    .description('change access, plan and limits of a workspace')
    .argument('<id>', 'workspace id', uuid('workspace'))
    .addOption(new Option('--api-access <on|off>', 'allow API keys').choices(onOff()))
    .addOption(new Option('--frozen <on|off>', 'freeze the workspace').choices(onOff()))
    .addOption(new Option('--plan <plan>', 'plan').choices(PLAN_CHOICES))
    .addOption(new Option('--plan-active <on|off>', 'whether the plan is paid up').choices(onOff()))
    .option('--rate-limit <n>', 'requests per minute of the workspace', wholeNumber(1))
    // A number overrides the plan's concurrent search limit for this workspace; `plan` clears the override.
    .option('--max-concurrent-searches <n|plan>', "searches running at once, or 'plan' for the plan's limit", (v: string) =>
      v === 'plan' ? 'plan' : wholeNumber(1)(v),
    )
    .option('--name <name>', 'new name', nonBlank)
    .addOption(jsonOption())
    .action(
      host.action<{
        apiAccess?: string;
        frozen?: string;
        plan?: string;
        planActive?: string;
        rateLimit?: number;
        maxConcurrentSearches?: number | 'plan';
        name?: string;
        json?: boolean;
      }>(async (ctx, opts, [id]) => {
        const changes: WorkspaceChanges = {};
        if (opts.apiAccess) changes.api_access_enabled = opts.apiAccess === 'on';
        if (opts.frozen) changes.frozen = opts.frozen === 'on';
        if (opts.plan) changes.plan = planOf(opts.plan);
        if (opts.planActive) changes.plan_active = opts.planActive === 'on';
        if (opts.rateLimit !== undefined) changes.rate_limit_per_minute = opts.rateLimit;
        if (opts.maxConcurrentSearches !== undefined)
          changes.max_concurrent_searches = opts.maxConcurrentSearches === 'plan' ? null : opts.maxConcurrentSearches;
        if (opts.name) changes.name = opts.name;
        if (Object.keys(changes).length === 0)
          throw new UsageError('nothing to update: give --api-access, --frozen, --plan, --plan-active, --rate-limit, --max-concurrent-searches or --name');
        await findWorkspace(ctx, id);
        const updated = (await workspaceRepository(ctx.db).update(id, changes))!;
        const view = {
          id: updated.id,
          name: updated.name,
          plan: updated.plan,
          plan_active: updated.plan_active,
          api_access: updated.api_access_enabled,
          frozen: updated.frozen,
          rate_limit: updated.rate_limit_per_minute,
          max_concurrent_searches: updated.max_concurrent_searches ?? 'plan',
        };
        ctx.out(
          opts.json
            ? JSON.stringify(view)
            : `Updated workspace ${updated.id}: ${Object.entries(view)
                .slice(1)
                .map(([k, v]) => `${k}=${v}`)
                .join(' ')}`,
        );
      }),
    );

  const keys = program.command('keys').description('issue, list and revoke API keys');
  keys
    .command('create')
    .description('issue an API key; the raw key is printed once and only its hash is stored')
    .requiredOption('--workspace <id>', 'workspace id', uuid('workspace'))
    .requiredOption('--name <name>', 'key name', nonBlank)
    .requiredOption('--scopes <list>', `comma-separated scopes, or ${ALL_SCOPES} for all`, commaList)
    .addOption(new Option('--funding <mode>', 'credit bucket the key spends').choices(FUNDING_MODES).default('workspace'))
    .addOption(new Option('--env <env>', 'key environment').choices(KEY_ENVIRONMENTS).default('live'))
    .option('--rate-limit <n>', 'requests per minute of the key', wholeNumber(1), DEFAULT_KEY_RATE_LIMIT)
    .option('--expires-at <iso>', 'expiry (ISO 8601)', isoTimestamp)
    .addOption(jsonOption())
    .action(
      host.action<{
        workspace: string;
        name: string;
        scopes: string[];
        funding: FundingMode;
        env: KeyEnvironment;
        rateLimit: number;
        expiresAt?: Date;
        json?: boolean;
      }>(async (ctx, opts) => {
        const unknown = opts.scopes.filter((s) => !isKnownScope(s));
        if (opts.scopes.length === 0 || unknown.length)
          throw new UsageError(`unknown scope(s) ${unknown.join(', ') || '(none given)'}; known: ${ALL_SCOPES}, ${SCOPES.join(', ')}`);
        const workspace = await findWorkspace(ctx, opts.workspace);
        const { key, raw } = await apiKeyRepository(ctx.db).issue({
          workspaceId: workspace.id,
          name: opts.name,
          scopes: opts.scopes,
          fundingMode: opts.funding,
          environment: opts.env,
          rateLimitPerMinute: opts.rateLimit,
          expiresAt: opts.expiresAt ?? null,
        });
        if (opts.json) {
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
          ctx.out(
            `Created key ${key.id} "${key.name}" for workspace ${workspace.id} (scopes ${opts.scopes.join(',')}, ${opts.env}, ${opts.funding}, ${opts.rateLimit}/min)`,
          );
          ctx.out(`API key (shown once, store it now): ${raw}`);
        }
      }),
    );

  keys
    .command('list')
    .description("list a workspace's keys (hints only, never the keys)")
    .requiredOption('--workspace <id>', 'workspace id', uuid('workspace'))
    .addOption(jsonOption())
    .action(
      host.action<{ workspace: string; json?: boolean }>(async (ctx, opts) => {
        const workspace = await findWorkspace(ctx, opts.workspace);
        const list = (await apiKeyRepository(ctx.db).listForWorkspace(workspace.id)).map(keySummary);
        if (opts.json) return ctx.out(JSON.stringify({ workspace_id: workspace.id, keys: list }));
        if (list.length === 0) return ctx.out(`workspace ${workspace.id} has no keys`);
        for (const k of list) {
          const state = k.revoked_at ? `revoked ${k.revoked_at}` : k.expires_at && new Date(k.expires_at) <= new Date() ? `expired ${k.expires_at}` : 'active';
          ctx.out(
            `${k.id}  ${k.key_hint}  ${k.name}  [${k.scopes.join(',')}]  ${k.environment}/${k.funding_mode}  ${k.rate_limit}/min  ${state}  last used ${k.last_used_at ?? 'never'}`,
          );
        }
      }),
    );

  keys
    .command('revoke')
    .description('revoke a key at once')
    .argument('<key-id>', 'key id', uuid('key id'))
    .addOption(jsonOption())
    .action(
      host.action<{ json?: boolean }>(async (ctx, opts, [id]) => {
        const key = await apiKeyRepository(ctx.db).revoke(id);
        if (!key) throw new UsageError(`no key ${id}`);
        ctx.out(opts.json ? JSON.stringify(keySummary(key)) : `Revoked key ${key.id} (${key.key_hint}) at ${key.revoked_at!.toISOString()}`);
      }),
    );

  program
    .command('credits')
    .description('grant credits')
    .command('grant')
    .description('append a grant to the credit ledger of a workspace bucket')
    .requiredOption('--workspace <id>', 'workspace id', uuid('workspace'))
    .requiredOption('--amount <n>', 'credits to grant', wholeNumber(1))
    .addOption(new Option('--bucket <bucket>', 'credit bucket').choices(FUNDING_MODES).default('workspace'))
    .option('--reason <text>', 'why (shown in GET /billing/ledger)', nonBlank)
    .addOption(jsonOption())
    .action(
      host.action<{ workspace: string; amount: number; bucket: CreditBucket; reason?: string; json?: boolean }>(async (ctx, opts) => {
        const workspace = await findWorkspace(ctx, opts.workspace);
        // The ledger reason says who granted and why (GET /billing/ledger shows it).
        const why = opts.reason?.replace(/\s+/g, ' ').slice(0, 200);
        const reason = why ? `grant:operator: ${why}` : 'grant:operator';
        const ledger = creditLedgerRepository(ctx.db);
        await ledger.append({ workspaceId: workspace.id, bucket: opts.bucket, delta: opts.amount, reason });
        const balance = await ledger.balance(workspace.id, opts.bucket);
        ctx.out(
          opts.json
            ? JSON.stringify({ workspace_id: workspace.id, bucket: opts.bucket, granted: opts.amount, balance, reason })
            : `Granted ${opts.amount} credits to ${opts.bucket} bucket of ${workspace.id} (${reason}); balance ${balance}`,
        );
      }),
    );
};
