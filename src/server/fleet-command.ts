import { ERRORS } from '../error-codes.js';
import { connectRedis, fleetKeys, LAG_COUNT_LIMIT, liveFronts, redactedRedisUrl, sharedTierSize, whenReady, type FleetFront, type SharedTierSize } from '../fleet/index.js';
import { parseCommandArgs } from './cli-args.js';
import type { Command } from './command.js';

const USAGE = 'sitestack fleet [--json]';

/** A stored text shown in one terminal cell: control characters (a hostile announcement's) as `?`. */
function cell(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

function lagText(lag: number): string {
  if (lag < 0) return 'unknown';
  return lag >= LAG_COUNT_LIMIT ? `≥${LAG_COUNT_LIMIT}` : String(lag);
}

/** The fronts as a table: one line each, columns padded to their widest cell. */
export function fleetTable(fronts: readonly FleetFront[]): string {
  if (fronts.length === 0) return 'no front alive\n';
  const rows = [
    ['front', 'address', 'last applied', 'lag', 'heartbeat'],
    ...fronts.map((front) => [cell(front.id), cell(front.address), front.lastId, lagText(front.lag), `${(front.heartbeatAgeMs / 1000).toFixed(1)} s ago`]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length))) ?? [];
  return `${rows.map((row) => row.map((text, column) => text.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n')}\n`;
}

/** The shared second tier's size as the table's last line. */
export function tierLine({ copies, bytes }: SharedTierSize): string {
  return `shared tier: ${copies} ${copies === 1 ? 'copy' : 'copies'}, ${(bytes / 1024 / 1024).toFixed(1)} MiB\n`;
}

export const fleetCommand: Command = {
  name: 'fleet',
  summary: 'list the fronts alive in the fleet (REDIS_URL): address, last applied purge, lag and heartbeat age, and the shared tier\'s size; --json',
  usage: USAGE,
  async run({ args, config, logger, out }) {
    const json = parseCommandArgs({ args, options: { json: { type: 'boolean' } } }, USAGE).values.json === true;
    const fleet = config.fleet;
    if (fleet === undefined) throw ERRORS.REDIS_UNSET('`sitestack fleet`');
    const redis = connectRedis({ url: fleet.redisUrl, options: { ...fleet, reconnect: { baseMs: fleet.commandTimeoutMs, maxMs: fleet.commandTimeoutMs } }, logger, role: 'fleet command' });
    try {
      let fronts: FleetFront[];
      let tier: SharedTierSize;
      try {
        await whenReady(redis, fleet.commandTimeoutMs);
        const keys = fleetKeys(fleet.prefix);
        fronts = await liveFronts(redis, keys, fleet.memberTtlMs);
        tier = await sharedTierSize(redis, keys.tier);
      } catch (error) {
        throw ERRORS.REDIS_UNREACHABLE(redactedRedisUrl(fleet.redisUrl), error instanceof Error ? error.message : String(error));
      }
      out.write(json ? `${JSON.stringify({ fronts, tier }, null, 2)}\n` : fleetTable(fronts) + tierLine(tier));
      return 0;
    } finally {
      redis.disconnect();
    }
  },
};
