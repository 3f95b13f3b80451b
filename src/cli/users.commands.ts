import { Option } from 'commander';
import { reencryptAllSecrets } from '../credentials/credentials.service';
import { ROLES, type Role } from '../db/membership.repository';
import { AppError } from '../domain/errors';
import { addMember, createUser } from '../users/users.service';
import { nonBlank, UsageError, uuid } from './args';
import type { RegisterCommands } from './command';

/** Domain refusals (user exists, no such workspace) are usage errors for the operator. */
async function asUsage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof AppError && err.status < 500) throw new UsageError(err.message);
    throw err;
  }
}

const roleOption = () => new Option('--role <role>', 'role in the workspace').choices(ROLES).makeOptionMandatory();

export const registerUserCommands: RegisterCommands = (program, host) => {
  const users = program.command('users').description('people who sign in to the app (session API)');
  users
    .command('create')
    .description('create a user with a password and make them a member of a workspace')
    .requiredOption('--email <email>', 'email address (the sign-in name)', nonBlank)
    .requiredOption('--password <password>', 'password (never printed)')
    .requiredOption('--workspace <id>', 'workspace id', uuid('workspace'))
    .addOption(roleOption())
    .option('--json', 'print one JSON object')
    .action(
      host.action<{ email: string; password: string; workspace: string; role: Role; json?: boolean }>(async (ctx, opts) => {
        const user = await asUsage(createUser(ctx.db, { email: opts.email, password: opts.password, workspaceId: opts.workspace, role: opts.role }));
        // The password is never printed.
        if (opts.json) ctx.out(JSON.stringify({ id: user.id, email: user.email, workspace_id: opts.workspace, role: opts.role }));
        else ctx.out(`Created user ${user.id} ${user.email} (${opts.role} of workspace ${opts.workspace})`);
      }),
    );
  users
    .command('add')
    .description('make an existing user a member of a workspace (or change their role)')
    .requiredOption('--email <email>', 'email address of the user', nonBlank)
    .requiredOption('--workspace <id>', 'workspace id', uuid('workspace'))
    .addOption(roleOption())
    .option('--json', 'print one JSON object')
    .action(
      host.action<{ email: string; workspace: string; role: Role; json?: boolean }>(async (ctx, opts) => {
        const user = await asUsage(addMember(ctx.db, { email: opts.email, workspaceId: opts.workspace, role: opts.role }));
        if (opts.json) ctx.out(JSON.stringify({ id: user.id, email: user.email, workspace_id: opts.workspace, role: opts.role }));
        else ctx.out(`User ${user.email} is now ${opts.role} of workspace ${opts.workspace}`);
      }),
    );

  program
    .command('secrets')
    .description('encrypted secrets (provider credentials, webhook signing secrets)')
    .command('reencrypt')
    .description('move every secret from SECRETS_KEY_PREVIOUS to SECRETS_KEY')
    .option('--json', 'print one JSON object')
    .action(
      host.action<{ json?: boolean }>(async (ctx, opts) => {
        const counts = await reencryptAllSecrets(ctx.db, ctx.config);
        if (opts.json) ctx.out(JSON.stringify(counts));
        else
          ctx.out(
            `Re-encrypted under SECRETS_KEY: ${counts.credentials} credential(s), ${counts.webhooks} webhook secret(s); ${counts.unchanged} already current`,
          );
        // Exit 1 so a rotation script notices before SECRETS_KEY_PREVIOUS is dropped.
        if (counts.undecryptable.length)
          throw new Error(
            `${counts.undecryptable.length} secret(s) decrypt under neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS: ${counts.undecryptable.join(', ')}`,
          );
      }),
    );
};
