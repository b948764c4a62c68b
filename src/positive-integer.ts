/**
 * `value` when it is a whole number of at least 1. Otherwise `invalid`, the catalogue entry of the component's bad
 * options (`ERRORS.EDGE_CONFIG_INVALID`, …), builds the error naming the option, so each reports under its own code.
 */
export function positiveInteger(name: string, value: number, invalid: (name: string, wanted: string, value: number) => Error): number {
  if (!Number.isSafeInteger(value) || value < 1) throw invalid(name, 'to be a positive integer', value);
  return value;
}
