/** A small, strict argument parser: unknown or malformed options are errors, never ignored. */

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | true>;
}

export function parseArgs(argv: string[], spec: { values?: string[]; flags?: string[]; positionals?: number }): ParsedArgs {
  const values = new Set(spec.values ?? []);
  const flags = new Set(spec.flags ?? []);
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (flags.has(name)) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      options[name] = true;
    } else if (values.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
      options[name] = value;
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  const expected = spec.positionals ?? 0;
  if (positionals.length !== expected) {
    throw new UsageError(expected === 0 ? `unexpected argument ${positionals[0]}` : `expected ${expected} argument(s), got ${positionals.length}`);
  }
  return { positionals, options };
}

export function requireOption(args: ParsedArgs, name: string): string {
  const value = args.options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}
