#!/usr/bin/env bash
# Several consoles behind nginx on one PostgreSQL (issue 27's speed), in one run:
#  - device check-in answered 304 with DEVICES (100,000) enrolled devices, wrk -t 2 -c 64: the
#    bare Hummingbird route, nginx alone (a fixed answer), one console directly, one console
#    through nginx, and two consoles through nginx (round robin) — all on this one machine, so
#    two consoles share its two cores with nginx, PostgreSQL and wrk;
#  - live update latency across instances: a simulator action posted to console A, the event
#    read from a stream open on console B, over TRIALS (200) changes (target p99 <= 1 s).
# Sizes: DEVICES, DURATION (10s), TRIALS. E.g. DEVICES=20000 DURATION=5s for a short check.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/common.sh
scripts/ensure-apt-packages postgresql nginx
DEVICES=${DEVICES:-100000}
DURATION=${DURATION:-10s}
TRIALS=${TRIALS:-200}
PORT_A=8191 PORT_B=8192 BARE_PORT=8194 BOTH=8190 ONE=8195 FIXED=8193
PG=$(mktemp -d /tmp/payload-console-bench-postgres.XXXXXX)
SERVER_B= NGINX_STARTED=
trap 'kill $SERVER $SERVER_B $BARE_SERVER 2>/dev/null || true; [ -n "$NGINX_STARTED" ] && nginx -p "$WORK" -c "$WORK/nginx.conf" -s stop 2>/dev/null; scripts/throwaway-postgres remove "$PG"; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
PG_URL=$(scripts/throwaway-postgres start "$PG")
psql -q "$PG_URL" -c "ALTER SYSTEM SET fsync = on" -c "SELECT pg_reload_conf()" >/dev/null
DB="$PG_URL&schema=cluster"

proxy() { # how nginx passes a request on: HTTP/1.1 kept alive, streams unbuffered
  echo "proxy_pass http://$1; proxy_http_version 1.1; proxy_set_header Connection \"\"; proxy_buffering off;"
}
cat > "$WORK/nginx.conf" <<NGINX
worker_processes 2;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $WORK/nginx-body;
    proxy_temp_path $WORK/nginx-proxy;
    upstream one { server 127.0.0.1:$PORT_A; keepalive 64; }
    upstream both { server 127.0.0.1:$PORT_A; server 127.0.0.1:$PORT_B; keepalive 64; }
    server { listen 127.0.0.1:$FIXED; location / { return 200 "ok"; } }
    server { listen 127.0.0.1:$ONE; location / { $(proxy one) } }
    server { listen 127.0.0.1:$BOTH; location / { $(proxy both) } }
}
NGINX

checkin() { # label, URL[, path instead of the check-in's]: wrk's req/s, with the label and p99 on stderr
  local out
  out=$(wrk -t 2 -c 64 -d "$DURATION" --latency -s Benchmarks/checkin.lua "$2" -- "$WORK/with-tags" ${3:-})
  echo "$1: $(echo "$out" | awk '/Requests\/sec/ { print $2 }') req/s, p99 $(echo "$out" | awk '$1 == "99%" { print $2 }')$(echo "$out" | grep -q Non-2xx && echo ", $(echo "$out" | grep Non-2xx | xargs)" || true)" >&2
  echo "$out" | awk '/Requests\/sec/ { print $2 }'
}

echo "== $DEVICES devices on PostgreSQL, 1,000 profiles"
$BENCH seed --db "$DB" --profiles 1000 --devices "$DEVICES" --tokens-file "$WORK/tokens" >/dev/null
echo "benchmark passphrase" | $BIN user add --email bench@example.com --role admin --db "$DB" >/dev/null
TOKEN=$($BIN token create --role helpdesk --name bench --db "$DB")
$BIN serve --db "$DB" --data-dir "$WORK/a" --port "$PORT_A" --log-level error >/dev/null &
SERVER=$!
$BIN serve --db "$DB" --data-dir "$WORK/b" --port "$PORT_B" --log-level error >/dev/null &
SERVER_B=$!
$BARE "$BARE_PORT" >/dev/null 2>&1 &
BARE_SERVER=$!
nginx -p "$WORK" -c "$WORK/nginx.conf"
NGINX_STARTED=1
for port in $PORT_A $PORT_B $BARE_PORT $BOTH; do
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
done
head -500 "$WORK/tokens" | while read -r token; do
  tag=$(curl -s -o /dev/null -D - -H "Authorization: Bearer $token" "http://127.0.0.1:$PORT_A/api/v1/device/policy" | awk 'tolower($1) == "etag:" { print $2 }' | tr -d '\r')
  echo "$token $tag"
done > "$WORK/with-tags"

bare=$(checkin "bare Hummingbird route, same requests" "http://127.0.0.1:$BARE_PORT" /healthz)
fixed=$(checkin "nginx alone, a fixed answer" "http://127.0.0.1:$FIXED" /healthz)
direct=$(checkin "one console, directly" "http://127.0.0.1:$PORT_A")
one=$(checkin "one console through nginx" "http://127.0.0.1:$ONE")
both=$(checkin "two consoles through nginx" "http://127.0.0.1:$BOTH")
awk -v b="$bare" -v f="$fixed" -v d="$direct" -v o="$one" -v t="$both" 'BEGIN {
  printf "304 check-in as a share of the bare route: one console directly %.0f%%, through nginx %.0f%%, two consoles through nginx %.0f%% (nginx alone %.0f%%)\n", 100 * d / b, 100 * o / b, 100 * t / b, 100 * f / b }'

UDID=$(psql -X -q -t -A "$PG_URL" -c "SELECT udid FROM cluster.devices ORDER BY id LIMIT 1")
python3 Benchmarks/live-latency.py "http://127.0.0.1:$PORT_A/api/v1/simulator/$UDID/actions" \
  "http://127.0.0.1:$PORT_B/api/v1/simulator/$UDID/events" "$TOKEN" "$TRIALS"
