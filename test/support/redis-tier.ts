import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { FLEET_DEFAULTS, fleetKeys, PurgeStreamWriter, RedisSharedTier, SHARED_TIER_DEFAULTS, type ResolvedFleetOptions, type ResolvedSharedTierOptions, type SharedTierKeys } from '../../src/fleet/index.js';
import type { SharedTierUnderTest } from '../../src/fleet/second-tier/test-support/shared-tier-contract.js';
import { silentLogger } from '../../src/log.js';

/** A length-prefixed list as the tier's scripts write it. */
function decoded(encoded: Buffer): string[] {
  const items: string[] = [];
  let at = 0;
  while (at < encoded.length) {
    const colon = encoded.indexOf(0x3a, at);
    const end = colon + 1 + Number(encoded.toString('latin1', at, colon));
    items.push(encoded.toString('utf8', colon + 1, end));
    at = end;
  }
  return items;
}

async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', '1000');
    cursor = next;
    found.push(...batch);
  } while (cursor !== '0');
  return found;
}

/** What the tier holds, read key by key: its copies (cache key → targets, keys, size) and its index sets. */
export async function tierContents(redis: Redis, keys: SharedTierKeys) {
  const copies = new Map<string, { targets: string[]; keys: string[]; size: number }>();
  for (const name of await keysUnder(redis, keys.copyPrefix)) {
    const [targets, surrogates, size] = await redis.hmgetBuffer(name, 'targets', 'keys', 'size');
    assert.ok(targets && surrogates && size, `copy ${name} is whole`);
    copies.set(name.slice(keys.copyPrefix.length), { targets: decoded(targets), keys: decoded(surrogates), size: Number(size.toString()) });
  }
  const sets = async (prefix: string) => new Map(await Promise.all((await keysUnder(redis, prefix)).map(async (name) => [name.slice(prefix.length), await redis.smembers(name)] as const)));
  return {
    copies,
    targets: await sets(keys.targetPrefix),
    surrogates: await sets(keys.surrogatePrefix),
    recency: await redis.zrange(keys.recency, '0', '-1'),
    bytes: Number((await redis.get(keys.bytes)) ?? '0'),
  };
}

/**
 * The tier's bookkeeping holds: every index set's member is a copy that lists the set's name, every copy is in each
 * of its sets and in the recency order, and the byte count is the copies' sizes added up.
 */
export async function assertIndexWhole(redis: Redis, keys: SharedTierKeys): Promise<Awaited<ReturnType<typeof tierContents>>> {
  const held = await tierContents(redis, keys);
  for (const [kind, sets] of [['targets', held.targets], ['keys', held.surrogates]] as const) {
    for (const [name, members] of sets) {
      for (const member of members) assert.ok(held.copies.get(member)?.[kind].includes(name), `${kind} set ${JSON.stringify(name)} names ${JSON.stringify(member)}, which does not list it`);
    }
  }
  for (const [key, copy] of held.copies) {
    for (const target of copy.targets) assert.ok(held.targets.get(target)?.includes(key), `copy ${JSON.stringify(key)} missing from target ${JSON.stringify(target)}`);
    for (const name of copy.keys) assert.ok(held.surrogates.get(name)?.includes(key), `copy ${JSON.stringify(key)} missing from key ${JSON.stringify(name)}`);
  }
  assert.deepEqual([...held.recency].sort(), [...held.copies.keys()].sort(), 'the recency order holds exactly the copies');
  assert.equal(held.bytes, [...held.copies.values()].reduce((total, copy) => total + copy.size, 0), 'the byte count adds up');
  return held;
}

let sites = 0;

/** A tier of a site of its own on `url`, with the origin's purge (the stream writer) as its purge hook. */
export async function redisTierUnderTest(url: string, admin: Redis, tierOptions: Partial<ResolvedSharedTierOptions> = {}) {
  const options: ResolvedFleetOptions = { ...FLEET_DEFAULTS, prefix: `tier-test-${process.pid}-${sites++}`, commandTimeoutMs: 2_000, applyWaitMs: 0 };
  const keys = fleetKeys(options.prefix);
  const logger = silentLogger();
  const tier = new RedisSharedTier({ url, options, tier: { ...SHARED_TIER_DEFAULTS, ...tierOptions }, logger });
  await tier.ready(5_000);
  const writers = {
    delete: new PurgeStreamWriter({ redis: admin, keys, options, logger }),
    soft: new PurgeStreamWriter({ redis: admin, keys, options, logger, purgeMode: 'soft' }),
  };
  return {
    tier,
    keys: keys.tier,
    stream: keys.stream,
    purge: async (pathnames: readonly string[], surrogates: readonly string[], soft: boolean) => {
      await writers[soft ? 'soft' : 'delete'].deliver({ pathnames, keys: surrogates });
    },
    settled: () => tier.settled(),
    close: () => tier.close(),
  } satisfies SharedTierUnderTest & Record<string, unknown>;
}

export type RedisTierUnderTest = Awaited<ReturnType<typeof redisTierUnderTest>>;

/** Runs `use` with a tier of a site of its own, closed afterwards whatever happens. */
export async function withRedisTier(url: string, admin: Redis, tierOptions: Partial<ResolvedSharedTierOptions>, use: (subject: RedisTierUnderTest) => Promise<void>): Promise<void> {
  const subject = await redisTierUnderTest(url, admin, tierOptions);
  try {
    await use(subject);
  } finally {
    await subject.close();
  }
}
