#!/usr/bin/env bash
# PostgreSQL beside SQLite and the bare route, in one run (issue 26's speed targets):
#  - device check-in with DEVICES (100,000) enrolled devices, answered 304 and 200, each as a
#    share of the bare Hummingbird route under the same requests (targets: 304 >= 60%, 200 >= 50%,
#    on both backends), wrk -t 2 -c 64;
#  - the profile list and a device page at 8 clients (target p99 <= 20 ms on both);
#  - bytes per stored log line on each backend, from LINES (100,000) seeded lines.
# PostgreSQL is a throwaway server in WORK (scripts/throwaway-postgres), fsync on as in production.
# Sizes: DEVICES, LINES, DURATION (10s). E.g. DEVICES=20000 DURATION=5s for a short check.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/common.sh
PORT=${PORT:-8188}
BARE_PORT=${BARE_PORT:-8189}
URL="http://127.0.0.1:$PORT"
DEVICES=${DEVICES:-100000}
LINES=${LINES:-100000}
DURATION=${DURATION:-10s}
scripts/ensure-apt-packages postgresql
# Its own folder directly in /tmp: as root the server runs as `postgres`, which cannot enter WORK.
PG=$(mktemp -d /tmp/payload-console-bench-postgres.XXXXXX)
trap 'kill $SERVER $BARE_SERVER 2>/dev/null || true; scripts/throwaway-postgres remove "$PG"; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
PG_URL=$(scripts/throwaway-postgres start "$PG")
# The throwaway script turns fsync off for tests; a benchmark of a database server keeps it on.
psql -q "$PG_URL" -c "ALTER SYSTEM SET fsync = on" -c "SELECT pg_reload_conf()" >/dev/null

$BARE "$BARE_PORT" >/dev/null 2>&1 &
BARE_SERVER=$!

checkin() { # label, URL, then wrk arguments
  local label=$1; shift
  local out
  out=$(wrk -t 2 -c 64 -d "$DURATION" --latency "$@")
  echo "$label: $(echo "$out" | awk '/Requests\/sec/ { print $2 }') req/s, p99 $(echo "$out" | awk '$1 == "99%" { print $2 }')$(echo "$out" | grep -q Non-2xx && echo ", $(echo "$out" | grep Non-2xx | xargs)" || true)" >&2
  echo "$out" | awk '/Requests\/sec/ { print $2 }'
}

bench_backend() { # name, --db value
  local name=$1 db=$2
  echo "== $name: $DEVICES devices, 1,000 profiles"
  local seeded=$(date +%s.%N)
  $BIN bench seed --db "$db" --profiles 1000 --devices "$DEVICES" --tokens-file "$WORK/tokens-$name" >/dev/null
  echo "seeded in $(awk -v s="$seeded" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
  echo "benchmark passphrase" | $BIN user add --email bench@example.com --role admin --db "$db" >/dev/null
  $BIN serve --db "$db" --data-dir "$WORK/data-$name" --port "$PORT" --log-level error >/dev/null &
  SERVER=$!
  for _ in $(seq 100); do curl -sf "$URL/healthz" >/dev/null && break; sleep 0.2; done
  head -500 "$WORK/tokens-$name" | while read -r token; do
    tag=$(curl -s -o /dev/null -D - -H "Authorization: Bearer $token" "$URL/api/v1/device/policy" | awk 'tolower($1) == "etag:" { print $2 }' | tr -d '\r')
    echo "$token $tag"
  done > "$WORK/with-tags"
  awk '{ print $1 }' "$WORK/with-tags" > "$WORK/without-tags"
  local bare unchanged changed
  bare=$(checkin "bare Hummingbird route, same requests" -s Benchmarks/checkin.lua "http://127.0.0.1:$BARE_PORT" -- "$WORK/with-tags" /healthz)
  unchanged=$(checkin "check-in, unchanged (304)" -s Benchmarks/checkin.lua "$URL" -- "$WORK/with-tags")
  changed=$(checkin "check-in, full policy (200)" -s Benchmarks/checkin.lua "$URL" -- "$WORK/without-tags")
  awk -v b="$bare" -v u="$unchanged" -v c="$changed" -v n="$name" 'BEGIN {
    printf "%s: 304 check-in %.0f%% of the bare route (target >= 60%%), 200 check-in %.0f%% (target >= 50%%)\n", n, 100 * u / b, 100 * c / b }'
  local jar="$WORK/cookies-$name" csrf session
  csrf=$(curl -s -c "$jar" "$URL/sign-in" | sed -n 's/.*name="_csrf" value="\([^"]*\)".*/\1/p' | head -1)
  curl -s -b "$jar" -c "$jar" -o /dev/null --data-urlencode "_csrf=$csrf" --data-urlencode "email=bench@example.com" \
    --data-urlencode "password=benchmark passphrase" "$URL/sign-in"
  session=$(awk '$6 == "pc_session" { print $7 }' "$jar")
  for path in /profiles /devices/42; do
    run "$name GET $path (8 clients; target p99 <= 20 ms)" "$URL$path" -H "Cookie: pc_session=$session"
  done
  kill $SERVER; wait $SERVER 2>/dev/null || true
  SERVER=
}

bench_backend sqlite "$DB"
bench_backend postgres "$PG_URL&schema=bench"

echo "== bytes per stored log line, $LINES lines (in-process LogStore.append, 500 a write)"
$BIN bench seed-logs --db "$WORK/logs.sqlite" --lines "$LINES" --apps 50 --devices 1000 | sed 's/^/sqlite: /' | grep -E "lines/s|bytes a line"
$BIN bench seed-logs --db "$PG_URL&schema=logbench" --lines "$LINES" --apps 50 --devices 1000 | sed 's/^/postgres: /' | grep -E "seeded|bytes a line"
