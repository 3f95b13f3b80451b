import { runCli } from '../../src/cli/main';

/** Runs the operator CLI in this process (its database from the run's environment) and captures what it prints. */
export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}
