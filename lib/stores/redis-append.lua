
local main = ARGV[1] == 'main'
if main then
  local cur = redis.call('HGET', KEYS[4], ARGV[2])
  if (cur or '') ~= ARGV[3] then return -1 end
end
local uuids, fresh, seen = {}, {}, {}
for i = 5, #ARGV, 2 do
  if ARGV[i] ~= '' then uuids[#uuids + 1] = ARGV[i] end
end
local present = {}
for i = 1, #uuids, 1000 do
  local part = redis.call('SMISMEMBER', KEYS[2], unpack(uuids, i, math.min(i + 999, #uuids)))
  for j = 1, #part do present[i + j - 1] = part[j] end
end
local k, added = 0, {}
for i = 5, #ARGV, 2 do
  local u = ARGV[i]
  if u == '' then
    fresh[#fresh + 1] = ARGV[i + 1]
  else
    k = k + 1
    if present[k] == 0 and not seen[u] then
      seen[u] = true
      added[#added + 1] = u
      fresh[#fresh + 1] = ARGV[i + 1]
    end
  end
end
for i = 1, #added, 1000 do redis.call('SADD', KEYS[2], unpack(added, i, math.min(i + 999, #added))) end
for i = 1, #fresh, 1000 do redis.call('RPUSH', KEYS[1], unpack(fresh, i, math.min(i + 999, #fresh))) end
if main then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local prev = tonumber(redis.call('ZSCORE', KEYS[3], ARGV[2]) or '0')
  redis.call('ZADD', KEYS[3], math.max(now, prev + 1), ARGV[2])
  redis.call('HSET', KEYS[4], ARGV[2], ARGV[4])
else
  redis.call('SADD', KEYS[3], ARGV[2])
end
return #fresh
