import { topUpJson } from '../billing/billing.presenter';
import { topUpRepository } from '../db/top-up.repository';
import { workspaceRepository } from '../db/workspace.repository';
import { parseArgs, requireOption, UsageError, uuidArg } from './args';
import type { CliContext } from './command';

export const billingCommands: Record<string, (argv: string[], ctx: CliContext) => Promise<void>> = {
  /** For support staff: a workspace's top-ups, newest first, with their workflow ids. */
  async 'billing top-ups'(argv, ctx) {
    const args = parseArgs(argv, { values: ['workspace'], flags: ['json'] });
    const workspaceId = uuidArg(requireOption(args, 'workspace'), 'workspace');
    if (!(await workspaceRepository(ctx.db).find(workspaceId))) throw new UsageError(`no workspace ${workspaceId}`);
    const { topUps, total } = await topUpRepository(ctx.db).listForWorkspace(workspaceId);
    if (args.options.json)
      return ctx.out(JSON.stringify({ workspace_id: workspaceId, total, top_ups: topUps.map((t) => ({ ...topUpJson(t), workflow_id: t.workflow_id })) }));
    if (topUps.length === 0) return ctx.out(`workspace ${workspaceId} has no top-ups`);
    for (const t of topUps) {
      const when =
        t.status === 'paid'
          ? `paid ${t.paid_at?.toISOString()}${t.granted_at ? ', granted' : ', grant pending'}`
          : t.status === 'expired'
            ? `expired ${t.expired_at?.toISOString() ?? ''}`
            : `open until ${t.expires_at.toISOString()}`;
      ctx.out(
        `${t.id}  $${Number(t.amount_usd).toFixed(2)} → ${t.shortlists} credits (${t.bucket})  ${t.provider}${t.test_mode ? ' test' : ''}  ${t.status}  ${when}  ${t.workflow_id}`,
      );
    }
  },
};
