const UNIT_MS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Parses a duration such as `30d`, `12h`, `90m`, `45s` or `2w` into milliseconds; undefined when malformed or zero. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})([smhdw])$/.exec(text.trim());
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  const unit = UNIT_MS[match[2]];
  const amount = Number(match[1]);
  if (unit === undefined || amount < 1) return undefined;
  const ms = amount * unit;
  return Number.isSafeInteger(ms) ? ms : undefined;
}
