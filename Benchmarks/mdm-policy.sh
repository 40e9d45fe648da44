#!/usr/bin/env bash
# Issue 45's targets for policy on real devices, each beside the bare Hummingbird route
# (Benchmarks/BareRoute) in the same run: 100,000 devices enrolled over MDM in one group
# (seeded: push tokens; the first 10,000 with a certificate and signed messages), then
#   - a profile (an ASAM allowlist) assigned to the group through the API: seconds from the
#     request to every InstallProfile queued, and to the last push nginx, standing in for
#     Apple's push service, logged; target <= 30 s, the server's peak memory < 300 MB;
#   - the drain: 10,000 of the devices say Idle and are handed their install, then report it
#     done (one signed PUT /mdm/command each) and are told what is next: devices/s, target
#     >= 2,000.
# wrk: 2 threads, 64 connections, sharing the 2 cores with the server.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/common.sh
PORT=${PORT:-8187}
BARE_PORT=${BARE_PORT:-8188}
APNS_PORT=${APNS_PORT:-8189}
URL="http://127.0.0.1:$PORT"
DURATION=${DURATION:-10s}
DEVICES=${DEVICES:-100000}
SIGNED=${SIGNED:-10000}
PUSH_PEM=Tests/SigningTests/Certificates/MDMPush/push.pem
. Benchmarks/mdm-common.sh
command -v sqlite3 >/dev/null || scripts/ensure-apt-packages sqlite3

openssl req -new -newkey rsa:2048 -nodes -keyout "$WORK/device.key" -outform DER -out "$WORK/device.csr" -subj "/CN=bench" 2>/dev/null
$BENCH seed-mdm --db "$DB" --devices "$DEVICES" --signed "$SIGNED" --no-command --csr "$WORK/device.csr" --key "$WORK/device.key" --out "$WORK"
start_apns_standin
echo "benchmark passphrase" | $BIN user add --email admin@example.com --role admin --db "$DB" >/dev/null
TOKEN=$($BIN token create --role admin --name bench --db "$DB")
SERVE_ARGS="--apns-url https://127.0.0.1:$APNS_PORT --apns-ca $WORK/apns.pem"
start_servers
api() { curl -sf -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" "$@"; }
curl -sf -X PUT -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/x-pem-file" --data-binary "@$PUSH_PEM" \
  "$URL/api/v1/mdm/push-certificate" >/dev/null
GROUP=$(sqlite3 "$DB" "SELECT id FROM device_groups WHERE name LIKE 'Bench MDM %' ORDER BY id DESC LIMIT 1")
count() { sqlite3 "$DB" "SELECT count(*) FROM device_commands WHERE requestType = '$1'"; }

# The anchor, in this run: the bare route answering the same signed Idle messages.
BARE=$(wrk -t 2 -c 64 -d "$DURATION" -s Benchmarks/mdm.lua "http://127.0.0.1:$BARE_PORT" -- "$WORK/idle.txt" 2 | awk '/Requests\/sec/ { print $2 }')
echo "bare route, the same signed Idle messages: $BARE req/s"

# Whatever the console's start queued (nothing: the group has no policy yet) is out of the way.
PROFILE=$(api -X POST "$URL/api/v1/profiles" \
  -d '{"name": "Exam allowlist", "payloads": [{"PayloadType": "com.apple.applicationaccess", "autonomousSingleAppModePermittedAppIDs": ["com.example.exam"]}]}' |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
: > "$WORK/pushes.log"
START=$(date +%s.%N)
api -X POST "$URL/api/v1/profiles/$PROFILE/assignments" -d "{\"groupID\": $GROUP}" >/dev/null
QUEUED_AT=
for _ in $(seq 600); do
  [ "$(count InstallProfile)" -ge "$DEVICES" ] && { QUEUED_AT=$(date +%s.%N); break; }
  sleep 0.1
done
wait_for_pushes "$DEVICES"
read -r PUSHED LAST <<<"$(pushes_logged)"
awk -v start="$START" -v queued="${QUEUED_AT:-0}" -v last="$LAST" -v pushed="$PUSHED" -v devices="$DEVICES" 'BEGIN {
  printf "assign to %d devices: every InstallProfile queued %.2f s after the request; %d pushed to the stand-in, the last %.2f s after it (target <= 30 s)\n",
         devices, queued - start, pushed, last - start }'
echo "server peak RSS: $(awk '/VmHWM/ { printf "%.0f MB", $2 / 1024 }' /proc/$SERVER/status) (target < 300 MB)"

# The drain: each signed device is handed its install, then reports it done.
wrk -t 2 -c 64 -d 30s -s Benchmarks/mdm.lua "$URL" -- "$WORK/idle.txt" 2 once >/dev/null
pass_rate "woken (Idle, handed its InstallProfile with the signed profile)" sentAt "" "$SIGNED" "requestType = 'InstallProfile'"
$BENCH sign-mdm-reports --db "$DB" --identities "$WORK/identities.txt" --key "$WORK/device.key" --out "$WORK"
wrk -t 2 -c 64 -d 30s -s Benchmarks/mdm.lua "$URL" -- "$WORK/reports.txt" 2 once >/dev/null
pass_rate "drain (install reported done, told what is next)" completedAt " (target >= 2000)" "$SIGNED" "requestType = 'InstallProfile'"
echo "installed on the device, as the console records it: $(sqlite3 "$DB" "SELECT count(*) FROM mdm_device_profiles WHERE installedDigest IS NOT NULL")"
