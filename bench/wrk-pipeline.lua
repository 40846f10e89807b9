-- wrk pipelining, as in wrk's own scripts/pipeline.lua: `depth` requests
-- (default 10, or the first script argument) written as one batch.
init = function(args)
  local depth = tonumber(args[1]) or 10
  local r = {}
  for i = 1, depth do r[i] = wrk.format() end
  req = table.concat(r)
end

request = function()
  return req
end
