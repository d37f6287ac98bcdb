-- wrk script of the mixed-workload benchmark: sends the requests of a sequence file
-- (written by mixed.ts from sequence.ts's toLua) one after another, starting again at
-- the end. Requests are formatted once, in init, so the script costs wrk next to nothing.
--   wrk -t1 -c16 -d3s -s bench/mix.lua http://127.0.0.1:PORT -- /path/to/sequence.lua

local requests = {}
local count = 0
local next_index = 0

function init(args)
  local seq = dofile(args[1])
  for i, r in ipairs(seq.requests) do
    local headers = {}
    for k, v in pairs(seq.headers) do headers[k] = v end
    local body = nil
    if r[3] then body = seq.bodies[r[3]] end
    if r[4] then headers["content-type"] = r[4] end
    headers["Host"] = wrk.headers["Host"]
    requests[i] = wrk.format(r[1], r[2], headers, body)
  end
  count = #requests
end

function request()
  next_index = next_index % count + 1
  return requests[next_index]
end
