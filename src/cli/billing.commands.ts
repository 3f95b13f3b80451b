import { topUpJson } from '../billing/billing.presenter';
import { topUpRepository } from '../db/top-up.repository';
import { findWorkspace } from './admin.commands';
import { uuid } from './args';
import type { RegisterCommands } from './command';

export const registerBillingCommands: RegisterCommands = (program, host) => {
  program
    .command('billing')
    .description('read billing state')
    .command('top-ups')
    .description("for support staff: a workspace's top-ups, newest first, with their workflow ids")
    .requiredOption('--workspace <id>', 'workspace id', uuid('workspace'))
    .option('--json', 'print one JSON object')
    .action(
      host.action<{ workspace: string; json?: boolean }>(async (ctx, opts) => {
        const workspace = await findWorkspace(ctx, opts.workspace);
        const { topUps, total } = await topUpRepository(ctx.db).listForWorkspace(workspace.id);
        if (opts.json)
          return ctx.out(JSON.stringify({ workspace_id: workspace.id, total, top_ups: topUps.map((t) => ({ ...topUpJson(t), workflow_id: t.workflow_id })) }));
        if (topUps.length === 0) return ctx.out(`workspace ${workspace.id} has no top-ups`);
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
      }),
    );
};
