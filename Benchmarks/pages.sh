#!/usr/bin/env bash
# Page latency at 8 concurrent clients with 1,000 profiles and 10,000 devices (issue 3's target:
# p99 ≤ 20 ms for the profile list and a device-policy page; the device list's search is held to
# the same target). Builds release, seeds a fresh
# database, signs in with curl and runs wrk against both pages.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || scripts/ensure-apt-packages wrk
swift build -c release --product payload-console >/dev/null
swift build -c release --product payload-console-bench >/dev/null
BIN=.build/release/payload-console
BENCH=.build/release/payload-console-bench
WORK=$(mktemp -d)
trap 'kill $SERVER 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
DB="$WORK/bench.sqlite"
PORT=${PORT:-8181}

$BENCH policy
$BENCH seed --db "$DB" --profiles 1000 --devices 10000
echo "benchmark passphrase" | $BIN user add --email bench@example.com --role admin --db "$DB" >/dev/null
$BIN serve --db "$DB" --data-dir "$WORK" --port "$PORT" --log-level error >/dev/null &
SERVER=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done

JAR="$WORK/cookies"
TOKEN=$(curl -s -c "$JAR" "http://127.0.0.1:$PORT/sign-in" | sed -n 's/.*name="_csrf" value="\([^"]*\)".*/\1/p' | head -1)
curl -s -b "$JAR" -c "$JAR" -o /dev/null --data-urlencode "_csrf=$TOKEN" --data-urlencode "email=bench@example.com" \
  --data-urlencode "password=benchmark passphrase" "http://127.0.0.1:$PORT/sign-in"
SESSION=$(awk '$6 == "pc_session" { print $7 }' "$JAR")
DEVICE=$(sqlite3 "$DB" "SELECT id FROM devices WHERE groupID = (SELECT max(id) FROM device_groups) LIMIT 1" 2>/dev/null || echo 5)

# The device list's search (issue 24): one device found inside its name, a serial number's
# middle (1,111 matches), and a word every device has (10,000 matches, the worst case).
for path in /profiles "/devices/$DEVICE" "/devices?q=device+09999" "/devices?q=0000003" "/devices?q=bench"; do
  echo "== GET $path (8 connections, 10 s)"
  wrk -t 2 -c 8 -d 10s --latency -H "Cookie: pc_session=$SESSION" "http://127.0.0.1:$PORT$path" | grep -E "Requests/sec|50%|99%|Non-2xx"
done
