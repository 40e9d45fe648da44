#!/usr/bin/env bash
# Issue 44's MDM targets, each beside the bare Hummingbird route (Benchmarks/BareRoute) in the
# same run: 10,000 devices enrolled over MDM (seeded: CA, certificates, push tokens, one command
# queued for each), then
#   - woken: every device says Idle and is handed its command (its first message since start);
#   - the drain: every device reports on its command and is told what comes next (one signed
#     PUT /mdm/command each, each report good once): devices/s, target >= 2,000;
#   - Idle turns with nothing waiting, signature checked: req/s, target >= 50% of the bare
#     route answering the same signed messages with an empty 200.
# wrk: 2 threads, 64 connections, sharing the 2 cores with the server.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/common.sh
PORT=${PORT:-8184}
BARE_PORT=${BARE_PORT:-8185}
URL="http://127.0.0.1:$PORT"
DURATION=${DURATION:-10s}
DEVICES=${DEVICES:-10000}

openssl req -new -newkey rsa:2048 -nodes -keyout "$WORK/device.key" -outform DER -out "$WORK/device.csr" -subj "/CN=bench" 2>/dev/null
$BENCH seed-mdm --db "$DB" --devices "$DEVICES" --csr "$WORK/device.csr" --key "$WORK/device.key" --out "$WORK"
start_servers

# wrk cannot end a run early, so each pass's time is the console's own: from the first to the
# last command it handed out (sentAt), then recorded as done (completedAt).
# 1. Woken: every device says Idle once and is handed its command. Each device's first message
#    since the console started, so its certificate's chain is checked in full.
# 2. The drain: every device reports on its command and is told what comes next.
pass_rate() { # label, column, target
  python3 - "$DB" "$DEVICES" "$@" <<'PY'
import sqlite3, sys
db, devices, label, column, target = sys.argv[1:]
done, first, last = sqlite3.connect(db).execute(
    f"SELECT COUNT(*), MIN({column}), MAX({column}) FROM device_commands WHERE queuedBy = 'bench' AND {column} IS NOT NULL").fetchone()
seconds = max(last - first, 0.001) if done else 0
print(f"{label}: {done} of {devices} devices in {seconds:.2f} s: {done / seconds if seconds else 0:.0f} devices/s{target}")
PY
}
wrk -t 2 -c 64 -d 30s -s Benchmarks/mdm.lua "$URL" -- "$WORK/idle.txt" 2 once >/dev/null
pass_rate "woken (Idle, handed its command; certificate checked in full)" sentAt ""
wrk -t 2 -c 64 -d 30s -s Benchmarks/mdm.lua "$URL" -- "$WORK/reports.txt" 2 once >/dev/null
pass_rate "drain (report recorded, told what is next)" completedAt " (target >= 2000)"

run() { # label, URL, then the script's arguments
  local label=$1 target=$2; shift 2
  local out rate
  out=$(wrk -t 2 -c 64 -d "$DURATION" --latency -s Benchmarks/mdm.lua "$target" -- "$@")
  rate=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
  echo "$label: $rate req/s, p99 $(echo "$out" | awk '$1 == "99%" { print $2 }')$(echo "$out" | grep -q Non-2xx && echo ", $(echo "$out" | grep Non-2xx | xargs)" || true)" >&2
  echo "$rate"
}
BARE=$(run "bare route, the same signed Idle messages" "http://127.0.0.1:$BARE_PORT" "$WORK/idle.txt" 2)
IDLE=$(run "MDM Idle, signature checked, nothing waiting" "$URL" "$WORK/idle.txt" 2)
awk -v b="$BARE" -v i="$IDLE" 'BEGIN { printf "Idle check-in: %.0f%% of the bare route (target >= 50%%)\n", 100 * i / b }'
echo "server peak RSS: $(awk '/VmHWM/ { printf "%.0f MB", $2 / 1024 }' /proc/$SERVER/status)"
