/**
 * `value` when it is a whole number of at least 1. Otherwise the complaint, naming the option, is thrown as the error
 * `invalid` makes of it, so each component reports bad options under its own error code.
 */
export function positiveInteger(name: string, value: number, invalid: (message: string) => Error): number {
  if (!Number.isSafeInteger(value) || value < 1) throw invalid(`expected ${name} to be a positive integer, got ${value}`);
  return value;
}
