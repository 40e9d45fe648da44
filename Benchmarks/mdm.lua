-- Plays MDM devices against the command endpoint: each request is the next device's signed
-- message (file lines "signature<TAB>body", from payload-console-bench seed-mdm).
-- Usage: wrk -t THREADS ... -s Benchmarks/mdm.lua URL -- messages.txt THREADS [once] [path]
-- With "once" each thread sends its share of the messages one time each and stops when all are
-- answered (wrk then reports the time that took): the drain, where a report is good only once.
-- Without it, the messages go round and round (Idle turns). The same script runs against the
-- bare route, so the comparison measures servers, not the load tool's Lua.
local messages = {}
local index, last, answered, once = 0, 0, 0, false
local path = "/mdm/command"
local counter = 1

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end

function init(args)
  local all = {}
  for line in io.lines(args[1]) do
    local signature, body = line:match("^(%S+)\t(.*)$")
    if signature then table.insert(all, { signature = signature, body = body }) end
  end
  local count = tonumber(args[2])
  once = args[3] == "once"
  if args[4] then path = args[4] end
  -- Each thread takes every n-th message, so no message is sent by two threads.
  for i = id, #all, count do table.insert(messages, all[i]) end
  last = #messages
  if not once then index = math.random(#messages) - 1 end
end

-- wrk asks the first thread's script for one request before the run, to check it, and sends
-- nothing of it: that thread's first message would be lost from the drain, so it gets this.
local checked = false

function request()
  if id == 1 and not checked then
    checked = true
    return wrk.format("GET", "/healthz")
  end
  if once then
    -- Past its share a thread repeats its last message (refused: already answered) until
    -- every answer it waits for has come.
    if index < last then index = index + 1 end
  else
    index = index % #messages + 1
  end
  local message = messages[index]
  return wrk.format("PUT", path, { ["Mdm-Signature"] = message.signature, ["Content-Type"] = "application/x-apple-aspen-mdm" }, message.body)
end

function response(status, headers, body)
  if once and status == 200 then
    answered = answered + 1
    if answered >= last then wrk.thread:stop() end
  end
end
