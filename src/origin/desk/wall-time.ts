/*
 * The editor's "Publish at" is a `datetime-local` input: a wall-clock time with no zone. The desk's script sends the
 * browser's IANA zone beside it (`zone`), and the origin stores the instant in UTC. Pure: no I/O.
 */

/** The wall-clock form a `datetime-local` input sends: `YYYY-MM-DDTHH:mm`, seconds and milliseconds optional. */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/** Longest zone name taken: the IANA database's longest is 32 characters (`America/Argentina/ComodRivadavia`). */
const ZONE_MAX_LENGTH = 64;

const formats = new Map<string, Intl.DateTimeFormat>();

/** A formatter of wall-clock parts in `zone`, or undefined when the runtime knows no such zone. */
function formatOf(zone: string): Intl.DateTimeFormat | undefined {
  const known = formats.get(zone);
  if (known !== undefined) return known;
  if (zone.length > ZONE_MAX_LENGTH || !/^[A-Za-z][A-Za-z0-9_+/-]*$/.test(zone)) return undefined;
  try {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // A bounded memo: zone names come from requests.
    if (formats.size < 512) formats.set(zone, format);
    return format;
  } catch {
    return undefined;
  }
}

/** Whether `zone` is an IANA time zone name this runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  return formatOf(zone) !== undefined;
}

/** The wall clock in `zone` at `instant` (ms), as milliseconds of a UTC date with the same fields. */
function wallMs(instant: number, format: Intl.DateTimeFormat): number {
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(instant))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const date = new Date(0);
  date.setUTCFullYear(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1);
  date.setUTCHours(parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, ((instant % 1000) + 1000) % 1000);
  return date.getTime();
}

/**
 * The UTC instant (ISO 8601) of a wall-clock time in `zone`, or undefined when `local` is no real date-time or `zone`
 * no known zone. A time skipped when clocks go forward is read with the offset from before the change (02:30 on a
 * spring-forward night is 03:30); a time that occurs twice when clocks go back is the first of them.
 */
export function wallTimeToUtc(local: string, zone: string): string | undefined {
  const match = WALL_TIME.exec(local);
  const format = formatOf(zone);
  if (match === null || format === undefined) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number((match[7] ?? '0').padEnd(3, '0')));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  const wall = date.getTime();
  // The offsets a day either side bound every instant the wall time can be; of those that show it, the earliest.
  const candidates = [wall - 36 * 3_600_000, wall + 36 * 3_600_000].map((probe) => wall - (wallMs(probe, format) - probe));
  const matching = candidates.filter((instant) => wallMs(instant, format) === wall).sort((a, b) => a - b);
  const instant = matching[0] ?? candidates[0] ?? wall;
  return new Date(instant).toISOString();
}

/** The `datetime-local` value (`YYYY-MM-DDTHH:mm`) showing `iso` on the wall clock of `zone` (UTC when unknown). */
export function utcToWallTime(iso: string, zone: string): string {
  const instant = Date.parse(iso);
  if (Number.isNaN(instant)) return '';
  const format = formatOf(zone) ?? formatOf('UTC');
  return new Date(format === undefined ? instant : wallMs(instant, format)).toISOString().slice(0, 16);
}
