import { isUuid } from '../domain/ids';

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

/** The option's value when it was given as `--name value`; undefined when absent. */
export const optionValue = (args: ParsedArgs, name: string): string | undefined => (typeof args.options[name] === 'string' ? args.options[name] : undefined);

export function uuidArg(value: string, what: string): string {
  if (!isUuid(value)) throw new UsageError(`${what} must be an id (uuid), got ${value}`);
  return value;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], option: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${option} must be one of ${allowed.join(', ')}, got ${value}`);
  return value as T;
}

export const onOff = (value: string, option: string): boolean => oneOf(value, ['on', 'off'] as const, option) === 'on';

export function wholeNumber(value: string, option: string, min = 1): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > 1_000_000_000)
    throw new UsageError(`--${option} must be a whole number of at least ${min}, got ${value}`);
  return Number(value);
}

export function isoTimestamp(value: string, option: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime()))
    throw new UsageError(`--${option} must be an ISO 8601 date or timestamp, got ${value}`);
  return date;
}
