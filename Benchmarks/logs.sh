#!/usr/bin/env bash
# The log store under load, in one run beside its anchors (issue 13's targets):
#  - export: every line of a 1,000,000-line store as NDJSON (GET /logs/export, signed in) at
#    >= 200,000 lines/s with the server's RSS growing < 20 MB (sampled every 0.1 s); beside the
#    same read in-process (`payload-console-bench read-logs`: raw SQLite, the export's chunked reads, and with
#    its NDJSON formatting);
#  - queries on 5,000,000 lines over 50 apps and 10,000 devices, wrk -t 2 -c 8: a filtered
#    viewer page, full-text searches (common word, rare word, two words, "phrase", prefix*) and
#    a crash-group page, each p99 <= 50 ms, and the dashboard with its fleet health strip
#    (issue 14: p99 <= 20 ms at 10,000 devices and 5,000,000 lines), and the impact preview of
#    unassigning the group's profile from its 10,000 devices (issue 14: <= 200 ms); beside a bare Hummingbird route (Benchmarks/BareRoute)
#    and the console's /healthz with the same wrk settings; the store's bytes a line;
#  - ingest: POST /api/v1/device/logs, batches of 500 NDJSON lines from 8 concurrent devices
#    (tokens rotating over 500 devices, plain and gzip bodies, the FTS index kept current in
#    the same transaction) at >= 100,000 lines/s; beside the same lines stored in-process through
#    LogStore.append and by raw SQLite (`payload-console-bench ingest`), and the decoding of the bodies alone.
# Builds both servers in release and seeds a fresh database in-process (`payload-console-bench seed-logs`, which
# prints its own rate): first EXPORT_LINES lines, exported, then the rest up to LINES.
# Sizes: LINES (5000000), EXPORT_LINES (1000000), INGEST_LINES (500000, in-process, each way),
# DURATION (10s, each wrk run); e.g. LINES=200000 for a quick run.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/common.sh
PORT=${PORT:-8184}
BARE_PORT=${BARE_PORT:-8185}
URL="http://127.0.0.1:$PORT"
LINES=${LINES:-5000000}
EXPORT_LINES=${EXPORT_LINES:-1000000}
[ "$EXPORT_LINES" -le "$LINES" ] || EXPORT_LINES=$LINES
INGEST_LINES=${INGEST_LINES:-500000}
DURATION=${DURATION:-10s}
APP=com.example.bench.app07

echo "== seed: $EXPORT_LINES lines over 50 apps from 10,000 devices, upload bodies of 500 lines"
$BENCH seed-logs --db "$DB" --lines "$EXPORT_LINES" --apps 50 --devices 10000 --tokens-file "$WORK/tokens" --bodies-dir "$WORK/bodies"
gzip -k "$WORK"/bodies/*.ndjson
echo "benchmark passphrase" | $BIN user add --email helpdesk@example.com --role helpdesk --db "$DB" >/dev/null
echo "benchmark passphrase" | $BIN user add --email admin@example.com --role admin --db "$DB" >/dev/null
start_servers

SESSION=$(sign_in helpdesk@example.com)
ADMIN_SESSION=$(sign_in admin@example.com)

echo "== export: every line of $EXPORT_LINES, NDJSON"
$BENCH read-logs --db "$DB" --lines "$EXPORT_LINES"
BEFORE=$(rss)
(while :; do rss; sleep 0.1; done) > "$WORK/rss" &
SAMPLER=$!
read -r CODE SECONDS_TAKEN BYTES < <(curl -s -o /dev/null -w '%{http_code} %{time_total} %{size_download}\n' \
  -H "Cookie: pc_session=$SESSION" "$URL/logs/export?format=ndjson")
kill $SAMPLER; wait $SAMPLER 2>/dev/null || true; SAMPLER=
PEAK=$(sort -n "$WORK/rss" | tail -1)
awk -v c="$CODE" -v t="$SECONDS_TAKEN" -v b="$BYTES" -v n="$EXPORT_LINES" -v before="$BEFORE" -v peak="$PEAK" 'BEGIN {
  printf "GET /logs/export?format=ndjson: HTTP %s, %.1f MB in %.2f s: %.0f lines/s (target >= 200,000)\n", c, b / 1048576, t, n / t
  printf "server RSS during the export: %.1f MB before, %.1f MB peak, +%.1f MB (target < 20 MB)\n", before / 1024, peak / 1024, (peak - before) / 1024
}'
START=$(date +%s.%N)
COUNTED=$(curl -s -H "Cookie: pc_session=$SESSION" "$URL/logs/export?format=ndjson" | wc -l)
awk -v s="$START" -v e="$(date +%s.%N)" -v n="$COUNTED" -v want="$EXPORT_LINES" 'BEGIN {
  printf "again through curl | wc -l: %d lines of %d (%s) in %.2f s: %.0f lines/s\n", n, want, n == want ? "all" : "MISSING LINES", e - s, n / (e - s)
}'

if [ "$LINES" -gt "$EXPORT_LINES" ]; then
  echo "== seed: $((LINES - EXPORT_LINES)) more lines"
  $BENCH seed-logs --db "$DB" --lines "$((LINES - EXPORT_LINES))" --apps 50
fi

echo "== queries on $LINES lines (wrk -t 2 -c 8 -d $DURATION)"
shown() { # what the page shows: log lines or crash groups
  local page
  page=$(curl -s -H "Cookie: pc_session=$SESSION" "$URL$1")
  echo "$(echo "$page" | grep -o '<tr class="log-' | wc -l) lines, $(echo "$page" | grep -o 'class="crash-signature"' | wc -l) crash groups shown"
}
run "bare Hummingbird route GET /healthz (anchor)" "http://127.0.0.1:$BARE_PORT/healthz"
run "console GET /healthz (anchor)" "$URL/healthz"
for path in "/logs?app=$APP&level=error" "/logs?q=request" "/logs?q=quokka" "/logs?q=request%20failed" \
            "/logs?q=%22disk%20space%22" "/logs?q=sync*" "/logs/crashes?app=$APP" "/dashboard"; do
  run "GET $path [$(shown "$path")]" "$URL$path" -H "Cookie: pc_session=$SESSION"
done

echo "== impact preview (issue 14: <= 200 ms for a group of 10,000 devices): unassigning the logging profile from their group"
read -r PROFILE GROUP < <(python3 -c "import sqlite3, sys; print(*sqlite3.connect(sys.argv[1]).execute('SELECT profileID, groupID FROM profile_assignments').fetchone())" "$DB")
PREVIEW="/profiles/$PROFILE/assignments/$GROUP/remove"
curl -s -H "Cookie: pc_session=$ADMIN_SESSION" "$URL$PREVIEW" | grep -o 'Reaches [^<]*' | head -1
for _ in 1 2 3; do
  curl -s -o /dev/null -w "one request alone: %{time_total} s\n" -H "Cookie: pc_session=$ADMIN_SESSION" "$URL$PREVIEW"
done
run "GET $PREVIEW" "$URL$PREVIEW" -H "Cookie: pc_session=$ADMIN_SESSION"

echo "== ingest: POST /api/v1/device/logs, 500 lines a request, 8 connections over 500 devices (wrk -t 2 -c 8 -d $DURATION)"
head -500 "$WORK/tokens" > "$WORK/ingest-tokens"
echo "one upload: $(curl -s -w ' HTTP %{http_code}' -H "Authorization: Bearer $(head -1 "$WORK/tokens")" \
  -H 'Content-Type: application/x-ndjson' --data-binary @"$WORK/bodies/body-000.ndjson" "$URL/api/v1/device/logs")"
ingest() { # label, then the Lua script's extra arguments
  local label=$1; shift
  local out
  out=$(wrk -t 2 -c 8 -d "$DURATION" --latency -s Benchmarks/logs-ingest.lua "$URL" -- "$WORK/ingest-tokens" "$WORK/bodies" 64 "$@")
  local rate
  rate=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
  echo "$label: $(awk -v r="$rate" 'BEGIN { printf "%.0f lines/s (%s req/s)", r * 500, r }'), p99 $(echo "$out" | awk '$1 == "99%" { print $2 }')$(echo "$out" | grep -q Non-2xx && echo ", $(echo "$out" | grep Non-2xx | xargs)" || true) (target >= 100,000 lines/s)"
}
ingest "plain NDJSON"
ingest "gzip NDJSON" gzip
$BENCH ingest --db "$DB" --bodies-dir "$WORK/bodies" --lines "$INGEST_LINES"
echo "server peak RSS over the whole run: $(awk '/VmHWM/ { printf "%.0f MB", $2 / 1024 }' "/proc/$SERVER/status")"
