import { reencryptAllSecrets } from '../credentials/credentials.service';
import { ROLES, type Role } from '../db/membership.repository';
import { AppError } from '../domain/errors';
import { addMember, createUser } from '../users/users.service';
import { oneOf, parseArgs, requireOption, UsageError, uuidArg } from './args';
import type { CliContext } from './command';

/** Domain refusals (user exists, no such workspace) are usage errors for the operator. */
async function asUsage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof AppError && err.status < 500) throw new UsageError(err.message);
    throw err;
  }
}

export const userCommands: Record<string, (argv: string[], ctx: CliContext) => Promise<void>> = {
  async 'users create'(argv, ctx) {
    const args = parseArgs(argv, { values: ['email', 'password', 'workspace', 'role'], flags: ['json'] });
    const email = requireOption(args, 'email');
    const password = requireOption(args, 'password');
    const workspaceId = uuidArg(requireOption(args, 'workspace'), 'workspace');
    const role: Role = oneOf(requireOption(args, 'role'), ROLES, 'role');
    const user = await asUsage(createUser(ctx.db, { email, password, workspaceId, role }));
    // The password is never printed.
    if (args.options.json) ctx.out(JSON.stringify({ id: user.id, email: user.email, workspace_id: workspaceId, role }));
    else ctx.out(`Created user ${user.id} ${user.email} (${role} of workspace ${workspaceId})`);
  },

  async 'users add'(argv, ctx) {
    const args = parseArgs(argv, { values: ['email', 'workspace', 'role'], flags: ['json'] });
    const workspaceId = uuidArg(requireOption(args, 'workspace'), 'workspace');
    const role: Role = oneOf(requireOption(args, 'role'), ROLES, 'role');
    const user = await asUsage(addMember(ctx.db, { email: requireOption(args, 'email'), workspaceId, role }));
    if (args.options.json) ctx.out(JSON.stringify({ id: user.id, email: user.email, workspace_id: workspaceId, role }));
    else ctx.out(`User ${user.email} is now ${role} of workspace ${workspaceId}`);
  },

  async 'secrets reencrypt'(argv, ctx) {
    const args = parseArgs(argv, { flags: ['json'] });
    const counts = await reencryptAllSecrets(ctx.db, ctx.config);
    if (args.options.json) ctx.out(JSON.stringify(counts));
    else
      ctx.out(`Re-encrypted under SECRETS_KEY: ${counts.credentials} credential(s), ${counts.webhooks} webhook secret(s); ${counts.unchanged} already current`);
    // Exit 1 so a rotation script notices before SECRETS_KEY_PREVIOUS is dropped.
    if (counts.undecryptable.length)
      throw new Error(
        `${counts.undecryptable.length} secret(s) decrypt under neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS: ${counts.undecryptable.join(', ')}`,
      );
  },
};
