/** True when the request path starts with one of the bypass prefixes: such a request is passed on untouched. */
export function isBypassed(target: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) {
    if (target.startsWith(prefix)) return true;
  }
  return false;
}
