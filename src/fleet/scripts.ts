/**
 * The Lua scripts of the fleet. Each runs atomically inside Redis and names only keys of one hash tag (FleetKeys), so
 * it runs in a Cluster too. Times are Redis's own clock (TIME), so the hosts' clocks need not agree.
 */

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Drops announcements older than the TTL: membership stays bounded by the fronts alive. ARGV[1] is the TTL. */
const TRIM = `local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
for _, id in ipairs(gone) do redis.call('HDEL', KEYS[2], id) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))`;

/**
 * A front's heartbeat. KEYS: members, announcements. ARGV: TTL (ms), id, announcement (JSON). Returns Redis's time.
 */
export const HEARTBEAT_SCRIPT = `${NOW}
${TRIM}
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return now`;

/**
 * The live fronts. KEYS: members, announcements, stream. ARGV: TTL (ms), most entries counted as a front's lag.
 * Returns { now, id, heartbeat, announcement, lag, … }; lag counts the entries after the front's last applied id, up
 * to the bound (-1: the announcement names no valid id).
 */
export const MEMBERS_SCRIPT = `${NOW}
${TRIM}
local out = { now }
local members = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local hasStream = redis.call('EXISTS', KEYS[3]) == 1
for i = 1, #members, 2 do
  local id = members[i]
  local info = redis.call('HGET', KEYS[2], id)
  if info then
    local lag = 0
    local ok, decoded = pcall(cjson.decode, info)
    local last = ok and type(decoded) == 'table' and decoded['lastId'] or nil
    if type(last) ~= 'string' or not string.match(last, '^%d+%-%d+$') then
      lag = -1
    elseif hasStream then
      lag = #redis.call('XRANGE', KEYS[3], '(' .. last, '+', 'COUNT', tonumber(ARGV[2]))
    end
    table.insert(out, id)
    table.insert(out, members[i + 1])
    table.insert(out, info)
    table.insert(out, lag)
  end
end
return out`;

/**
 * What a front reads in one step, so that nothing is trimmed between its check and its read. KEYS: epoch, stream.
 * ARGV: a new epoch token (set when there is none), the last applied id ('' for none yet), most entries, largest entry
 * (bytes). Returns { epoch, 0 } without a stream, else { epoch, 1, last generated id, highest deleted id, first
 * entry id or '', entries after the last applied id, entries ever added (-1 before Redis 7), entries held }; an entry
 * past the bound comes as { id, { 'oversized', size } }.
 */
export const READ_SCRIPT = `local epoch = redis.call('GET', KEYS[1])
if not epoch then
  redis.call('SET', KEYS[1], ARGV[1])
  epoch = ARGV[1]
end
if redis.call('EXISTS', KEYS[2]) == 0 then return { epoch, 0 } end
local info = redis.call('XINFO', 'STREAM', KEYS[2])
local last, deleted, first, added, length = '0-0', '0-0', '', -1, 0
for i = 1, #info, 2 do
  local name = info[i]
  if name == 'last-generated-id' then last = info[i + 1]
  elseif name == 'max-deleted-entry-id' then deleted = info[i + 1]
  elseif name == 'first-entry' and info[i + 1] then first = info[i + 1][1]
  elseif name == 'entries-added' then added = info[i + 1]
  elseif name == 'length' then length = info[i + 1]
  end
end
local entries = {}
if ARGV[2] ~= '' then
  local range = redis.call('XRANGE', KEYS[2], '(' .. ARGV[2], '+', 'COUNT', tonumber(ARGV[3]))
  for _, entry in ipairs(range) do
    local size = 0
    for _, field in ipairs(entry[2]) do size = size + #field end
    if size > tonumber(ARGV[4]) then
      table.insert(entries, { entry[1], { 'oversized', tostring(size) } })
    else
      table.insert(entries, entry)
    end
  end
end
return { epoch, 1, last, deleted, first, entries, added, length }`;
