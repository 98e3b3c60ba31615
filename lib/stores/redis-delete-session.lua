
local subs = redis.call('SMEMBERS', KEYS[1])
for _, sub in ipairs(subs) do
  local enc = string.gsub(sub, '[^%w_-]', function(c) return string.format('%%%02X', string.byte(c)) end)
  redis.call('DEL', ARGV[2] .. enc, ARGV[3] .. enc)
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('HDEL', KEYS[5], ARGV[1])
return #subs
