#!/usr/bin/env bash
# Issue 44's MDM targets, each beside the bare Hummingbird route (Benchmarks/BareRoute) in the
# same run: 10,000 devices enrolled over MDM (seeded: CA, certificates, push tokens, one command
# queued for each), then
#   - woken: every device says Idle and is handed its command (its first message since start);
#   - the drain: every device reports on its command and is told what comes next (one signed
#     PUT /mdm/command each, each report good once): devices/s, target >= 2,000;
#   - Idle turns with nothing waiting, signature checked: req/s, target >= 50% of the bare
#     route answering the same signed messages with an empty 200;
#   - one bulk action (every device the list finds) queues RestartDevice for all 10,000 and
#     the console pushes each: seconds from the admin's click to the last push that nginx,
#     standing in for Apple's push service (HTTP/2, TLS, the push certificate required as the
#     client's), logged; target <= 5 s;
#   - the push client alone (payload-console-bench push-flood): pushes/s over one connection.
# wrk: 2 threads, 64 connections, sharing the 2 cores with the server.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/common.sh
PORT=${PORT:-8184}
BARE_PORT=${BARE_PORT:-8185}
URL="http://127.0.0.1:$PORT"
DURATION=${DURATION:-10s}
DEVICES=${DEVICES:-10000}
APNS_PORT=${APNS_PORT:-8186}
PUSH_PEM=Tests/SigningTests/Certificates/MDMPush/push.pem

openssl req -new -newkey rsa:2048 -nodes -keyout "$WORK/device.key" -outform DER -out "$WORK/device.csr" -subj "/CN=bench" 2>/dev/null
$BENCH seed-mdm --db "$DB" --devices "$DEVICES" --csr "$WORK/device.csr" --key "$WORK/device.key" --out "$WORK"

. Benchmarks/mdm-common.sh
start_apns_standin
echo "benchmark passphrase" | $BIN user add --email admin@example.com --role admin --db "$DB" >/dev/null
TOKEN=$($BIN token create --role admin --name bench --db "$DB")
SERVE_ARGS="--apns-url https://127.0.0.1:$APNS_PORT --apns-ca $WORK/apns.pem"
start_servers
curl -sf -X PUT -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/x-pem-file" --data-binary "@$PUSH_PEM" \
  "$URL/api/v1/mdm/push-certificate" >/dev/null

# wrk cannot end a run early, so each pass's time is the console's own: from the first to the
# last command it handed out (sentAt), then recorded as done (completedAt).
# 1. Woken: every device says Idle once and is handed its command. Each device's first message
#    since the console started, so its certificate's chain is checked in full.
# 2. The drain: every device reports on its command and is told what comes next.
wrk -t 2 -c 64 -d 30s -s Benchmarks/mdm.lua "$URL" -- "$WORK/idle.txt" 2 once >/dev/null
pass_rate "woken (Idle, handed its command; certificate checked in full)" sentAt "" "$DEVICES" "queuedBy = 'bench'"
wrk -t 2 -c 64 -d 30s -s Benchmarks/mdm.lua "$URL" -- "$WORK/reports.txt" 2 once >/dev/null
pass_rate "drain (report recorded, told what is next)" completedAt " (target >= 2000)" "$DEVICES" "queuedBy = 'bench'"

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

# One bulk action on every device the list finds, as the admin's browser sends it.
JAR="$WORK/cookies-admin@example.com"
sign_in admin@example.com >/dev/null
CSRF=$(curl -s -b "$JAR" "$URL/devices" | sed -n 's/.*name="_csrf" value="\([^"]*\)".*/\1/p' | head -1)
: > "$WORK/pushes.log"
START=$(date +%s.%N)
curl -s -b "$JAR" -o /dev/null --data-urlencode "_csrf=$CSRF" --data "scope=filter&filter=&expected=$DEVICES&action=command&requestType=RestartDevice" \
  "$URL/devices/bulk"
ANSWERED=$(date +%s.%N)
wait_for_pushes "$DEVICES"
awk -v start="$START" -v answered="$ANSWERED" -v devices="$DEVICES" '
  $2 == 200 && $6 == "SUCCESS" { pushed++; if ($1 > last) last = $1 }
  END { printf "bulk: RestartDevice queued for %d devices in %.2f s (the page answered); %d pushed to the stand-in, the last %.2f s after the click (target <= 5 s)\n",
        devices, answered - start, pushed, last - start }' "$WORK/pushes.log"
echo "server peak RSS: $(awk '/VmHWM/ { printf "%.0f MB", $2 / 1024 }' /proc/$SERVER/status)"

# The push client alone, with the dispatcher's 500 in flight: its rate apart from queueing.
: > "$WORK/pushes.log"
$BENCH push-flood --url "https://127.0.0.1:$APNS_PORT" --identity "$PUSH_PEM" --ca "$WORK/apns.pem" --count "$DEVICES"
