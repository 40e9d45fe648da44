-- Plays devices uploading logs: each request is the next device's token with the next prebuilt
-- body of 500 NDJSON lines (written by `payload-console-bench seed-logs --bodies-dir`).
-- Usage: wrk ... -s Benchmarks/logs-ingest.lua URL -- tokens.txt bodies-dir count [gzip]
-- With gzip the bodies are read from body-NNN.ndjson.gz and sent with Content-Encoding: gzip.
local tokens = {}
local bodies = {}
local index = 0
local gzip = false

function init(args)
  for line in io.lines(args[1]) do
    if line ~= "" then table.insert(tokens, line) end
  end
  gzip = args[4] == "gzip"
  for number = 0, tonumber(args[3]) - 1 do
    local file = assert(io.open(string.format("%s/body-%03d.ndjson%s", args[2], number, gzip and ".gz" or ""), "rb"))
    table.insert(bodies, file:read("*a"))
    file:close()
  end
  -- Threads start at different devices and bodies so they do not march in step.
  index = math.random(#tokens)
end

function request()
  index = index + 1
  local headers = {
    ["Authorization"] = "Bearer " .. tokens[index % #tokens + 1],
    ["Content-Type"] = "application/x-ndjson",
  }
  if gzip then headers["Content-Encoding"] = "gzip" end
  return wrk.format("POST", "/api/v1/device/logs", headers, bodies[index % #bodies + 1])
end
