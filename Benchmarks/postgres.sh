#!/usr/bin/env bash
# PostgreSQL beside SQLite and the bare route, in one run (issue 26's speed targets):
#  - device check-in with DEVICES (100,000) enrolled devices, answered 304 and 200, each as a
#    share of the bare Hummingbird route under the same requests (targets: 304 >= 60%, 200 >= 50%,
#    on both backends), wrk -t 2 -c 64;
#  - the profile list and a device page at 8 clients (target p99 <= 20 ms on both);
#  - bytes per stored log line on each backend, from LINES (100,000) seeded lines;
#  - log ingest over HTTP on PostgreSQL, 500-line batches from 8 connections (target >= 50,000 lines/s);
#  - viewer searches at SEARCH_LINES (5,000,000) lines on PostgreSQL, 8 clients (target p99 <= 50 ms);
#  - `payload-console copy` of a SQLite console with COPY_LINES (1,000,000) log lines: its rate.
# PostgreSQL is a throwaway server in WORK (scripts/throwaway-postgres), fsync on as in production.
# Sizes: DEVICES, LINES, DURATION (10s), INGEST_DURATION (30s). E.g. DEVICES=20000 DURATION=5s for a short check.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/common.sh
PORT=${PORT:-8188}
BARE_PORT=${BARE_PORT:-8189}
URL="http://127.0.0.1:$PORT"
DEVICES=${DEVICES:-100000}
LINES=${LINES:-100000}
SEARCH_LINES=${SEARCH_LINES:-5000000}
COPY_LINES=${COPY_LINES:-1000000}
DURATION=${DURATION:-10s}
INGEST_DURATION=${INGEST_DURATION:-30s}
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
  $BENCH seed --db "$db" --profiles 1000 --devices "$DEVICES" --tokens-file "$WORK/tokens-$name" >/dev/null
  echo "seeded in $(awk -v s="$seeded" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
  # The tables as autovacuum keeps a console's, not as a bulk load leaves them: without
  # statistics PostgreSQL plans 100,000 fresh devices as a small table until autovacuum's first
  # round, which would otherwise land somewhere in the measurements.
  if [ "$name" = postgres ]; then psql -q "$PG_URL" -c "VACUUM (ANALYZE)"; fi
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
  local session
  session=$(sign_in bench@example.com)
  for path in /profiles /devices/42; do
    run "$name GET $path (8 clients; target p99 <= 20 ms)" "$URL$path" -H "Cookie: pc_session=$session"
  done
  kill $SERVER; wait $SERVER 2>/dev/null || true
  SERVER=
}

bench_backend sqlite "$DB"
bench_backend postgres "$PG_URL&schema=bench"

echo "== bytes per stored log line, $LINES lines (in-process LogStore.append, 500 a write)"
$BENCH seed-logs --db "$WORK/logs.sqlite" --lines "$LINES" --apps 50 --devices 1000 | sed 's/^/sqlite: /' | grep -E "lines/s|bytes a line"
$BENCH seed-logs --db "$PG_URL&schema=logbench" --lines "$LINES" --apps 50 --devices 1000 --tokens-file "$WORK/log-tokens" --bodies-dir "$WORK/bodies" \
  | sed 's/^/postgres: /' | grep -E "seeded|bytes a line"

echo "== log ingest over HTTP on PostgreSQL for $INGEST_DURATION: POST /api/v1/device/logs, 500 lines a request, 8 connections over 500 devices (target >= 50,000 lines/s)"
head -500 "$WORK/log-tokens" > "$WORK/ingest-tokens"
# The seeded store as a server that has been running holds it: vacuumed and analyzed (autovacuum
# follows a bulk insert within a minute) and its pages written out by a checkpoint. Otherwise the
# checkpoint of everything seeded so far ran through the measurement (run 9: the checkpointer
# was writing all of it). The ingest's own checkpoints stay in: 30 s of it writes more log
# than max_wal_size lets pass between two.
psql -q "$PG_URL" -c "VACUUM (ANALYZE) logbench_logs.device_logs" -c "CHECKPOINT"
$BIN serve --db "$PG_URL&schema=logbench" --data-dir "$WORK/data-logbench" --port "$PORT" --log-level error >/dev/null &
SERVER=$!
for _ in $(seq 100); do curl -sf "$URL/healthz" >/dev/null && break; sleep 0.2; done
run "bare Hummingbird route (anchor)" "http://127.0.0.1:$BARE_PORT/healthz"
out=$(wrk -t 2 -c 8 -d "$INGEST_DURATION" --latency -s Benchmarks/logs-ingest.lua "$URL" -- "$WORK/ingest-tokens" "$WORK/bodies" 64)
echo "postgres ingest: $(echo "$out" | awk '/Requests\/sec/ { printf "%.0f lines/s", $2 * 500 }'), p99 $(echo "$out" | awk '$1 == "99%" { print $2 }')$(echo "$out" | grep -q Non-2xx && echo ", $(echo "$out" | grep Non-2xx | xargs)" || true)"
kill $SERVER; wait $SERVER 2>/dev/null || true

echo "== searches on PostgreSQL at $SEARCH_LINES lines over 50 apps (wrk -t 2 -c 8)"
$BENCH seed-logs --db "$PG_URL&schema=logbench" --lines "$((SEARCH_LINES - LINES))" --apps 50 --devices 10000 | sed 's/^/postgres: /' | grep seeded
# Statistics as autovacuum would have gathered them by now; a bulk load outruns it.
psql -q "$PG_URL" -c "ANALYZE logbench_logs.device_logs"
echo "benchmark passphrase" | $BIN user add --email helpdesk@example.com --role helpdesk --db "$PG_URL&schema=logbench" >/dev/null
$BIN serve --db "$PG_URL&schema=logbench" --data-dir "$WORK/data-logbench" --port "$PORT" --log-level error >/dev/null &
SERVER=$!
for _ in $(seq 100); do curl -sf "$URL/healthz" >/dev/null && break; sleep 0.2; done
session=$(sign_in helpdesk@example.com)
run "bare Hummingbird route (anchor)" "http://127.0.0.1:$BARE_PORT/healthz"
APP=com.example.bench.app07
for path in "/logs?app=$APP&level=error" "/logs?q=request" "/logs?q=quokka" "/logs?q=request%20failed" \
            "/logs?q=%22disk%20space%22" "/logs?q=sync*" "/logs/crashes?app=$APP"; do
  run "postgres GET $path" "$URL$path" -H "Cookie: pc_session=$session"
done
kill $SERVER; wait $SERVER 2>/dev/null || true
SERVER=

echo "== payload-console copy: a SQLite console with $COPY_LINES log lines into PostgreSQL"
$BENCH seed-logs --db "$WORK/copy.sqlite" --lines "$COPY_LINES" --apps 50 --devices 1000 | grep seeded
$BIN copy --from "$WORK/copy.sqlite" --to "$PG_URL&schema=copybench" 2>/dev/null | tail -1
