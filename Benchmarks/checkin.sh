#!/usr/bin/env bash
# Throughput side by side, in one run: a bare Hummingbird route (Benchmarks/BareRoute, the
# anchor), the console's /healthz, and device check-in answered 304 and 200 with 10,000
# enrolled devices (issue 12's targets: /healthz >= 85%, 304 >= 60%, 200 >= 50% of the bare
# route; server peak RSS < 100 MB). Builds both in release, seeds a fresh database, learns the
# ETags of 500 devices with one check-in each, then runs wrk (2 threads, 64 connections)
# against each. Every run goes through the same Lua script (one token per request, rotating
# over the devices), so the load tool costs the same in each and the ratios compare servers.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/common.sh
PORT=${PORT:-8182}
BARE_PORT=${BARE_PORT:-8183}
URL="http://127.0.0.1:$PORT"
DURATION=${DURATION:-10s}

$BENCH seed --db "$DB" --profiles 1000 --devices 10000 --tokens-file "$WORK/tokens"
start_servers

head -500 "$WORK/tokens" | while read -r token; do
  tag=$(curl -s -o /dev/null -D - -H "Authorization: Bearer $token" "$URL/api/v1/device/policy" \
        | awk 'tolower($1) == "etag:" { print $2 }' | tr -d '\r')
  echo "$token $tag"
done > "$WORK/with-tags"
awk '{ print $1 }' "$WORK/with-tags" > "$WORK/without-tags"

run() { # label, then wrk arguments
  local label=$1; shift
  local out
  out=$(wrk -t 2 -c 64 -d "$DURATION" --latency "$@")
  local rate
  rate=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
  echo "$label: $rate req/s, p99 $(echo "$out" | awk '$1 == "99%" { print $2 }')$(echo "$out" | grep -q Non-2xx && echo ", $(echo "$out" | grep Non-2xx)" || true)" >&2
  echo "$rate"
}
BARE_RATE=$(run "bare Hummingbird route, same requests" -s Benchmarks/checkin.lua "http://127.0.0.1:$BARE_PORT" -- "$WORK/with-tags" /healthz)
HEALTH=$(run "console GET /healthz, same requests" -s Benchmarks/checkin.lua "$URL" -- "$WORK/with-tags" /healthz)
UNCHANGED=$(run "check-in, unchanged (304)" -s Benchmarks/checkin.lua "$URL" -- "$WORK/with-tags")
CHANGED=$(run "check-in, full policy (200)" -s Benchmarks/checkin.lua "$URL" -- "$WORK/without-tags")
awk -v b="$BARE_RATE" -v h="$HEALTH" -v u="$UNCHANGED" -v c="$CHANGED" 'BEGIN {
  printf "/healthz: %.0f%% of the bare route (target >= 85%%)\n", 100 * h / b
  printf "304 check-in: %.0f%% of the bare route (target >= 60%%)\n", 100 * u / b
  printf "200 check-in: %.0f%% of the bare route (target >= 50%%)\n", 100 * c / b
}'
echo "server peak RSS: $(awk '/VmHWM/ { printf "%.0f MB", $2 / 1024 }' /proc/$SERVER/status) (target < 100 MB)"
