/**
 * The second tier's Lua scripts: each step of a lookup, a store or a purge runs atomically in one round trip. Every
 * key they touch shares the site's hash tag (SharedTierKeys), so they run in a Cluster too. A copy's targets and
 * surrogate keys are kept as one length-prefixed list (`<bytes>:<text>…`), binary-safe whatever the names hold.
 * Times are Redis's clock (TIME).
 */

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Shared functions. `forget` removes one copy and its every index entry (a set left empty disappears with its last
 * member), so nothing outlives a copy; its cost is the copy's own targets and keys.
 */
const LIBRARY = `local function decode(text)
  local out, at = {}, 1
  while text and at <= #text do
    local colon = string.find(text, ':', at, true)
    local length = tonumber(string.sub(text, at, colon - 1))
    out[#out + 1] = string.sub(text, colon + 1, colon + length)
    at = colon + 1 + length
  end
  return out
end
local function encode(list)
  local parts = {}
  for i, item in ipairs(list) do parts[i] = #item .. ':' .. item end
  return table.concat(parts)
end
local function forget(copyPrefix, targetPrefix, surrogatePrefix, recency, bytes, key)
  local copy = copyPrefix .. key
  local fields = redis.call('HMGET', copy, 'targets', 'keys', 'size')
  redis.call('ZREM', recency, key)
  if not fields[3] then return 0 end
  for _, target in ipairs(decode(fields[1])) do redis.call('SREM', targetPrefix .. target, key) end
  for _, name in ipairs(decode(fields[2])) do redis.call('SREM', surrogatePrefix .. name, key) end
  redis.call('DEL', copy)
  redis.call('DECRBY', bytes, tonumber(fields[3]))
  return 1
end`;

/**
 * A miss's lookup. KEYS: copy, lock, recency, purges. ARGV: cache key, lead ('1' or '0'), a new lock token, lock ms.
 * Returns { 'found', copy } for a fresh copy (its use recorded); else, with lead and the lock free, { 'lead', copy or
 * {}, stale or '', purge count }; else { 'wait', copy or {}, stale or '' } when the lock is held or a stale copy is
 * there; else { 'none' }. A copy is { head, body, targets, keys }.
 */
export const LOOKUP_SCRIPT = `${NOW}
local fields = redis.call('HMGET', KEYS[1], 'head', 'body', 'targets', 'keys', 'stale')
local copy = {}
if fields[1] then
  copy = { fields[1], fields[2], fields[3], fields[4] }
  redis.call('ZADD', KEYS[3], now, ARGV[1])
  if not fields[5] then return { 'found', copy } end
end
local stale = fields[5] or ''
if ARGV[2] == '1' and redis.call('SET', KEYS[2], ARGV[3], 'NX', 'PX', tonumber(ARGV[4])) then
  return { 'lead', copy, stale, redis.call('GET', KEYS[4]) or '0' }
end
if fields[1] or redis.call('EXISTS', KEYS[2]) == 1 then return { 'wait', copy, stale } end
return { 'none' }`;

/**
 * Stores a render's copy under its ticket, then evicts the least recently used copies past the budget. KEYS: copy,
 * lock, recency, purges, bytes. ARGV: copy prefix, target prefix, surrogate prefix, cache key, lock token, purge count
 * of the ticket, head, body, budget (bytes), number of targets, the targets, the surrogate keys. Returns { outcome,
 * copies evicted }: 'stored'; 'not-holder' (the lock is another's or expired; left alone); 'purged' (a purge came
 * after the ticket; the lock is released).
 */
export const STORE_SCRIPT = `${LIBRARY}
${NOW}
if redis.call('GET', KEYS[2]) ~= ARGV[5] then return { 'not-holder', 0 } end
redis.call('DEL', KEYS[2])
if (redis.call('GET', KEYS[4]) or '0') ~= ARGV[6] then return { 'purged', 0 } end
local key = ARGV[4]
forget(ARGV[1], ARGV[2], ARGV[3], KEYS[3], KEYS[5], key)
local targetCount = tonumber(ARGV[10])
local targets, names = {}, {}
for i = 11, 10 + targetCount do targets[#targets + 1] = ARGV[i] end
for i = 11 + targetCount, #ARGV do names[#names + 1] = ARGV[i] end
local encodedTargets, encodedNames = encode(targets), encode(names)
local size = #key + #ARGV[7] + #ARGV[8] + #encodedTargets + #encodedNames
redis.call('HSET', KEYS[1], 'head', ARGV[7], 'body', ARGV[8], 'targets', encodedTargets, 'keys', encodedNames, 'size', size)
for _, target in ipairs(targets) do redis.call('SADD', ARGV[2] .. target, key) end
for _, name in ipairs(names) do redis.call('SADD', ARGV[3] .. name, key) end
redis.call('ZADD', KEYS[3], now, key)
local total = redis.call('INCRBY', KEYS[5], size)
local evicted = 0
while total > tonumber(ARGV[9]) do
  local oldest = redis.call('ZRANGE', KEYS[3], 0, 0)
  if #oldest == 0 or oldest[1] == key then break end
  evicted = evicted + forget(ARGV[1], ARGV[2], ARGV[3], KEYS[3], KEYS[5], oldest[1])
  total = tonumber(redis.call('GET', KEYS[5]) or '0')
end
return { 'stored', evicted }`;

/** Releases a lock if it is still the ticket's. KEYS: lock. ARGV: token. Returns 1 when released. */
export const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * The origin's purge: removes (mode 'delete') or marks stale (mode 'soft', keeping an earlier mark) every copy the
 * pathnames and surrogate keys find, counts the purge, and appends its stream entry, all in one step so that no front
 * reads the entry while the tier still holds what it removes. KEYS: stream, purges, recency, bytes. ARGV: copy prefix,
 * target prefix, surrogate prefix, mode, stream MAXLEN, number of pathnames, the pathnames, number of keys, the keys,
 * the entry's fields. Returns { entry id, copies touched }.
 */
export const PURGE_SCRIPT = `${LIBRARY}
${NOW}
local pathnameCount = tonumber(ARGV[6])
local keyCount = tonumber(ARGV[7 + pathnameCount])
local found, order = {}, {}
local function collect(set)
  for _, key in ipairs(redis.call('SMEMBERS', set)) do
    if not found[key] then
      found[key] = true
      order[#order + 1] = key
    end
  end
end
for i = 7, 6 + pathnameCount do collect(ARGV[2] .. ARGV[i]) end
for i = 8 + pathnameCount, 7 + pathnameCount + keyCount do collect(ARGV[3] .. ARGV[i]) end
local touched = 0
for _, key in ipairs(order) do
  if ARGV[4] == 'soft' then
    if redis.call('EXISTS', ARGV[1] .. key) == 1 then
      redis.call('HSETNX', ARGV[1] .. key, 'stale', now)
      touched = touched + 1
    end
  else
    touched = touched + forget(ARGV[1], ARGV[2], ARGV[3], KEYS[3], KEYS[4], key)
  end
end
redis.call('INCR', KEYS[2])
local fields = {}
for i = 8 + pathnameCount + keyCount, #ARGV do fields[#fields + 1] = ARGV[i] end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', tonumber(ARGV[5]), '*', unpack(fields))
return { id, touched }`;

/** The tier's size. KEYS: recency, bytes. Returns { copies, bytes }. */
export const SIZE_SCRIPT = `return { redis.call('ZCARD', KEYS[1]), tonumber(redis.call('GET', KEYS[2]) or '0') }`;
