-- Plays many devices against the check-in API: each request uses the next device's token and,
-- when the file gives one, the ETag that device already has (so the answer is 304).
-- Usage: wrk ... -s Benchmarks/checkin.lua URL -- devices.txt [path]   (lines: "token [etag]")
-- With path /healthz the same requests, headers and script cost go to the health check, so
-- the comparison measures the server and not the load tool's Lua.
local devices = {}
local index = 0
local path = "/api/v1/device/policy"

function init(args)
  for line in io.lines(args[1]) do
    local token, tag = line:match("^(%S+)%s*(.*)$")
    if token then table.insert(devices, { token = token, tag = tag }) end
  end
  if args[2] then path = args[2] end
  -- Threads start at different devices so they do not march in step.
  index = math.random(#devices)
end

function request()
  index = index % #devices + 1
  local device = devices[index]
  local headers = { ["Authorization"] = "Bearer " .. device.token }
  if device.tag ~= "" then headers["If-None-Match"] = device.tag end
  return wrk.format("GET", path, headers)
end
