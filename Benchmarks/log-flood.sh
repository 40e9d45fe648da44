#!/usr/bin/env bash
# A log flood against the people working in the console (issue 25), in one run beside its anchors:
#  - a store of LINES (5,000,000) indexed lines; the console serving it in release;
#  - ingest alone: POST /api/v1/device/logs, batches of 500 from 8 devices (wrk -t 2 -c 8) for
#    BURST (30s), nothing else running: lines/s (target >= 100,000); then the store put back;
#  - idle: an admin saving a profile every 100 ms, devices checking in every 20 ms and a helpdesk
#    search every 500 ms (Benchmarks/flood-probe.py), for IDLE seconds (30: 1,500 check-ins, so a p99 stands on 15 of them);
#  - the burst: the same uploads with the probe beside them: ingest lines/s, admin save p95
#    (target <= 3x idle), check-in p99 (<= 2x idle), search p99 (<= 1 s) and how far the index
#    fell behind; the server's RSS sampled every 0.2 s (target < 200 MB through burst and catch-up);
#  - the catch-up: seconds until the index has every line (target <= 60 s);
#  - afterwards, searches at 8 clients (issue 13's target: p99 <= 50 ms);
#  - anchors: the bare Hummingbird route and the console's /healthz under the same wrk, and the
#    in-process rates of the same inserts through LogStore.append and raw SQLite (`payload-console-bench ingest`).
# Sizes: LINES, BURST (30s), IDLE (30), DURATION (10s, each query run); e.g. LINES=500000 BURST=10s.
# STORE=dir starts from a copy of a store an earlier run kept (KEEP=1) instead of seeding one.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/common.sh
PORT=${PORT:-8186}
BARE_PORT=${BARE_PORT:-8187}
URL="http://127.0.0.1:$PORT"
LINES=${LINES:-5000000}
BURST=${BURST:-30s}
IDLE=${IDLE:-30}
DURATION=${DURATION:-10s}

if [ -n "${STORE:-}" ]; then
  # A store seeded earlier by this script (KEEP=1), for runs side by side: copied, then flushed
  # to disk, so the copy's writeback does not land in the measurements.
  echo "== store: a copy of $STORE"
  cp -r "$STORE"/bench.sqlite "$STORE"/bench-logs.sqlite "$STORE"/tokens "$STORE"/bodies "$WORK"/ && sync
else
  echo "== seed: $LINES lines over 50 apps from 10,000 devices, indexed; upload bodies of 500 lines"
  $BENCH seed-logs --db "$DB" --lines "$LINES" --apps 50 --devices 10000 --tokens-file "$WORK/tokens" --bodies-dir "$WORK/bodies"
fi
ADMIN_TOKEN=$($BIN token create --role admin --name flood --db "$DB")
HELPDESK_TOKEN=$($BIN token create --role helpdesk --name flood --db "$DB")
lag() { curl -s -H "Authorization: Bearer $HELPDESK_TOKEN" "$URL/api/v1/logs?limit=1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["index"]["unindexedLines"])'; }
probe() { python3 Benchmarks/flood-probe.py "$URL" "$ADMIN_TOKEN" "$HELPDESK_TOKEN" "$WORK/tokens" "$1"; }
report() { python3 Benchmarks/flood-probe.py report "$@"; }  # label, probe JSON
head -500 "$WORK/tokens" > "$WORK/ingest-tokens"
# 8 devices uploading 500-line batches for BURST; prints the rate and sets BURST_END.
ingest() {
  local out rate
  out=$(wrk -t 2 -c 8 -d "$BURST" --latency -s Benchmarks/logs-ingest.lua "$URL" -- "$WORK/ingest-tokens" "$WORK/bodies" 64)
  BURST_END=$(date +%s.%N)
  rate=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
  echo "ingest over HTTP$1: $(awk -v r="$rate" 'BEGIN { printf "%.0f lines/s (%s req/s)", r * 500, r }'), upload p50 $(echo "$out" | awk '$1 == "50%" { print $2 }'), p99 $(echo "$out" | awk '$1 == "99%" { print $2 }')$(echo "$out" | grep -q Non-2xx && echo ", $(echo "$out" | grep Non-2xx | xargs)" || true) (target >= 100,000 lines/s)"
}

# The ingest target as the issue states it, uploads alone; the store is set aside first and put
# back after, so the burst beside the people's probe starts from the same lines.
mkdir "$WORK/set-aside" && cp "$WORK"/bench*.sqlite* "$WORK/set-aside/" && sync
start_servers
echo "== ingest alone: 8 devices uploading 500-line batches for $BURST, no one else using the console"
ingest " (alone)"
kill $SERVER $BARE_SERVER; wait $SERVER $BARE_SERVER 2>/dev/null || true
rm "$WORK"/bench*.sqlite* && mv "$WORK"/set-aside/* "$WORK"/ && sync
start_servers

echo "== anchors: wrk -t 2 -c 8 -d $DURATION"
run "bare Hummingbird route GET /healthz" "http://127.0.0.1:$BARE_PORT/healthz"
run "console GET /healthz" "$URL/healthz"

echo "== idle: the probe alone for $IDLE s"
IDLE_RESULT=$(probe "$IDLE")
report "idle" "$IDLE_RESULT"

echo "== burst: 8 devices uploading 500-line batches for $BURST, the probe beside them"
BEFORE=$(rss)
(while :; do rss; sleep 0.2; done) > "$WORK/rss" &
SAMPLER=$!
BURST_SECONDS=${BURST%s}
probe "$BURST_SECONDS" > "$WORK/burst-probe" &
PROBE=$!
ingest " (the probe beside it)"
wait $PROBE
BURST_RESULT=$(cat "$WORK/burst-probe")
report "burst" "$BURST_RESULT"
python3 Benchmarks/flood-probe.py compare "$IDLE_RESULT" "$BURST_RESULT"

echo "== catch-up"
BEHIND=$(lag)
while [ "$(lag)" != "0" ]; do sleep 0.5; done
awk -v s="$BURST_END" -v e="$(date +%s.%N)" -v n="$BEHIND" 'BEGIN { printf "the index caught up %.1f s after the burst (%d lines behind as it ended; target <= 60 s)\n", e - s, n }'
kill $SAMPLER; wait $SAMPLER 2>/dev/null || true; SAMPLER=
PEAK=$(sort -n "$WORK/rss" | tail -1)
awk -v before="$BEFORE" -v peak="$PEAK" 'BEGIN { printf "server RSS: %.0f MB before the burst, %.0f MB at most through burst and catch-up (target < 200 MB)\n", before / 1024, peak / 1024 }'

echo "== searches once caught up (issue 13: p99 <= 50 ms at 8 clients)"
for q in request quokka "request%20failed" "%22disk%20space%22" "sync*"; do
  run "GET /api/v1/logs?q=$q" "$URL/api/v1/logs?q=$q&limit=50" -H "Authorization: Bearer $HELPDESK_TOKEN"
done

echo "== in-process anchors: the same inserts without HTTP"
kill $SERVER; wait $SERVER 2>/dev/null || true; SERVER=
$BENCH ingest --db "$DB" --bodies-dir "$WORK/bodies" --lines 500000
