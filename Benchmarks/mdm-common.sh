# What the MDM benchmarks share; sourced after Benchmarks/common.sh with APNS_PORT and PUSH_PEM
# set. Apple's push service's stand-in: nginx over HTTP/2 and TLS, asking for the push certificate as the
# client's (it is self-signed, so it is its own CA), logging each push with its time to
# $WORK/pushes.log; stopped at exit with the servers.
command -v nginx >/dev/null || scripts/ensure-apt-packages nginx

start_apns_standin() {
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
    -keyout "$WORK/apns.key" -out "$WORK/apns.pem" 2>/dev/null
  mkdir -p "$WORK/nginx-body"
  cat > "$WORK/apns.conf" <<NGINX
worker_processes 1;
pid $WORK/apns.pid;
error_log $WORK/apns-error.log;
events { worker_connections 1024; }
http {
    log_format pushes '\$msec \$status \$request_method \$uri \$http_apns_topic \$ssl_client_verify';
    access_log $WORK/pushes.log pushes;
    client_body_temp_path $WORK/nginx-body;
    server {
        listen 127.0.0.1:$APNS_PORT ssl http2;
        ssl_certificate $WORK/apns.pem;
        ssl_certificate_key $WORK/apns.key;
        ssl_client_certificate $PWD/$PUSH_PEM;
        ssl_verify_client on;
        http2_max_concurrent_streams 1000;
        # Apple's service keeps a connection for as many pushes as come; nginx closes it after
        # 1,000 requests unless told otherwise.
        keepalive_requests 1000000;
        location /3/device/ { return 200; }
    }
}
NGINX
  nginx -p "$WORK" -c "$WORK/apns.conf"
  trap 'kill $SERVER $BARE_SERVER 2>/dev/null || true; nginx -p "$WORK" -c "$WORK/apns.conf" -s stop 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
}

# Waits (at most a minute) until the stand-in logged COUNT successful pushes.
wait_for_pushes() {
  for _ in $(seq 120); do
    [ "$(grep -c ' 200 POST ' "$WORK/pushes.log")" -ge "$1" ] && return
    sleep 0.5
  done
}

# The number of successful pushes logged and the time of the last, as "count last".
pushes_logged() {
  awk '$2 == 200 && $6 == "SUCCESS" { pushed++; if ($1 > last) last = $1 } END { printf "%d %.3f\n", pushed, last }' "$WORK/pushes.log"
}

# A pass of devices over the command endpoint, timed by the console's own times (wrk cannot end
# a run early): from the first to the last command of those WHERE selects whose COLUMN is set.
# Arguments: label, column (sentAt: handed out; completedAt: recorded as done), what to print
# after the rate (the target), the number of devices, the commands' condition.
pass_rate() {
  python3 - "$DB" "$@" <<'PY'
import sqlite3, sys
db, label, column, target, devices, where = sys.argv[1:]
done, first, last = sqlite3.connect(db).execute(
    f"SELECT COUNT(*), MIN({column}), MAX({column}) FROM device_commands WHERE {where} AND {column} IS NOT NULL").fetchone()
seconds = max(last - first, 0.001) if done else 0
print(f"{label}: {done} of {devices} devices in {seconds:.2f} s: {done / seconds if seconds else 0:.0f} devices/s{target}")
PY
}
