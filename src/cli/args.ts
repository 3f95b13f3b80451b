import { InvalidArgumentError } from 'commander';
import { isUuid } from '../domain/ids';

/**
 * Value parsers for commander options and arguments: a bad value is a usage error (exit 2) that
 * names the option, never a silently coerced default.
 */

/** A problem with what the operator typed that commander cannot see (e.g. an id that does not exist). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const uuid =
  (what: string) =>
  (value: string): string => {
    if (!isUuid(value)) throw new InvalidArgumentError(`${what} must be an id (uuid)`);
    return value;
  };

export const wholeNumber =
  (min = 1) =>
  (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > 1_000_000_000)
      throw new InvalidArgumentError(`must be a whole number of at least ${min}`);
    return Number(value);
  };

export function isoTimestamp(value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) throw new InvalidArgumentError('must be an ISO 8601 date or timestamp');
  return date;
}

/** `a,b , c` → ['a', 'b', 'c'] without duplicates or empty entries. */
export const commaList = (value: string): string[] => [
  ...new Set(
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

export const nonBlank = (value: string): string => {
  if (value.trim() === '') throw new InvalidArgumentError('must not be blank');
  return value.trim();
};
