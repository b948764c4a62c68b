import type { PurgeMode, PurgeRequest } from '@sitestack/page-cache';
import type { FleetConfig } from '../config.js';
import { connectRedis, fleetKeys, PurgeStreamWriter, redactedRedisUrl, whenReady } from '../fleet/index.js';
import type { Logger } from '../log.js';

/** What one purge route did: the keys the fronts behind it purged, or why it failed. */
export type RouteOutcome = { url: string; ok: true; purged: string[] } | { url: string; ok: false; reason: string };

/**
 * `sitestack purge`'s route to a fleet (`REDIS_URL`): the purge appended to the stream as the origin's outbox appends
 * it, then, like the outbox, a wait of at most `FLEET_APPLY_WAIT_MS` for every live front (or proxy) to apply it. The
 * fronts come and go, so this is the only route that reaches all of them, and the only one a team without a sitestack
 * origin (proxies before Next.js) has. A front still behind fails the route: the entry stays in the stream for it.
 * The shared tier's copies are removed, or with `purgeMode: 'soft'` marked stale, in the same step.
 */
export async function purgeOverStream(fleet: FleetConfig, request: PurgeRequest, purgeMode: PurgeMode, logger: Logger): Promise<RouteOutcome> {
  const keys = fleetKeys(fleet.prefix);
  // One attempt: a command run by hand says at once that Redis is away rather than retrying in the background.
  const redis = connectRedis({ url: fleet.redisUrl, options: { ...fleet, reconnect: { baseMs: fleet.commandTimeoutMs, maxMs: fleet.commandTimeoutMs } }, logger, role: 'purge command' });
  const writer = new PurgeStreamWriter({ redis, keys, options: fleet, logger, purgeMode });
  try {
    await whenReady(redis, fleet.commandTimeoutMs);
    const delivery = await writer.deliver({ pathnames: request.pathnames ?? [], keys: request.keys ?? [] });
    if (delivery.behind.length === 0) return { url: writer.route, ok: true, purged: delivery.purged };
    const behind = delivery.behind.map((front) => front.address || front.id).join(', ');
    return { url: writer.route, ok: false, reason: `appended as ${delivery.id}, not applied within ${fleet.applyWaitMs} ms by ${behind}` };
  } catch (error) {
    return { url: writer.route, ok: false, reason: `cannot reach Redis at ${redactedRedisUrl(fleet.redisUrl)}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    redis.disconnect();
  }
}
