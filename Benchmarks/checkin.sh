#!/usr/bin/env bash
# Device check-in throughput against /healthz on the same server in the same run (issue 4's
# target: 304s at >= 60% and 200s at >= 40% of /healthz, 10,000 enrolled devices, server RSS
# < 150 MB). Builds release, seeds a fresh database, learns the ETags of 500 devices with one
# check-in each, then runs wrk (2 threads, 64 connections) against the three endpoints. Every
# run goes through the same Lua script (one token per request, rotating over the devices), so
# the load tool costs the same in each and the ratio compares the server's work.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || scripts/ensure-apt-packages wrk
swift build -c release --product payload-console >/dev/null
BIN=.build/release/payload-console
WORK=$(mktemp -d)
trap 'kill $SERVER 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
DB="$WORK/bench.sqlite"
PORT=${PORT:-8182}
URL="http://127.0.0.1:$PORT"
DURATION=${DURATION:-10s}

$BIN bench seed --db "$DB" --profiles 1000 --devices 10000 --tokens-file "$WORK/tokens"
$BIN serve --db "$DB" --data-dir "$WORK" --port "$PORT" --log-level error >/dev/null &
SERVER=$!
for _ in $(seq 50); do curl -sf "$URL/healthz" >/dev/null && break; sleep 0.2; done

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
HEALTH=$(run "GET /healthz, same requests" -s Benchmarks/checkin.lua "$URL" -- "$WORK/with-tags" /healthz)
UNCHANGED=$(run "check-in, unchanged (304)" -s Benchmarks/checkin.lua "$URL" -- "$WORK/with-tags")
CHANGED=$(run "check-in, full policy (200)" -s Benchmarks/checkin.lua "$URL" -- "$WORK/without-tags")
awk -v h="$HEALTH" -v u="$UNCHANGED" -v c="$CHANGED" 'BEGIN {
  printf "304 check-in: %.0f%% of /healthz (target >= 60%%)\n", 100 * u / h
  printf "200 check-in: %.0f%% of /healthz (target >= 40%%)\n", 100 * c / h
}'
echo "server peak RSS: $(awk '/VmHWM/ { printf "%.0f MB", $2 / 1024 }' /proc/$SERVER/status) (target < 150 MB)"
