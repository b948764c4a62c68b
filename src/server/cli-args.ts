import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ERRORS } from '../error-codes.js';

/** node:util parseArgs (strict by default), its errors turned into a USAGE AppError naming the command's usage. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    // Its first sentence: node goes on about `--` and positional arguments, which no sitestack command takes that way.
    const message = (error as Error).message.split(/\.\s/)[0] ?? '';
    throw ERRORS.USAGE(message, usage);
  }
}

/** A non-negative integer option value, or a USAGE error naming the option. */
export function nonNegativeInteger(option: string, value: string, usage: string): number {
  if (!/^\d{1,9}$/.test(value)) throw ERRORS.USAGE(`${option} expects a non-negative integer, got '${value}'`, usage);
  return Number(value);
}
