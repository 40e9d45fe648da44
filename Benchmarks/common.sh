# What the benchmark scripts share; sourced after `cd` to the package root. Builds the console, its
# measurements (payload-console-bench: seeding, in-process rates) and Benchmarks/BareRoute in release, makes WORK (removed at exit unless KEEP is set) and stops
# whatever SERVER, BARE_SERVER and SAMPLER name at exit.
command -v wrk >/dev/null || scripts/ensure-apt-packages wrk
swift build -c release --product payload-console >/dev/null
swift build -c release --product payload-console-bench >/dev/null
swift build -c release --package-path Benchmarks/BareRoute >/dev/null
BIN=.build/release/payload-console
BENCH=.build/release/payload-console-bench
BARE=Benchmarks/BareRoute/.build/release/BareRoute
WORK=$(mktemp -d)
SERVER= BARE_SERVER= SAMPLER=
trap 'kill $SERVER $BARE_SERVER $SAMPLER 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
DB="$WORK/bench.sqlite"

# Serves DB on PORT (with SERVE_ARGS) and the bare route on BARE_PORT, and waits until both answer.
start_servers() {
  $BIN serve --db "$DB" --data-dir "$WORK" --port "$PORT" --log-level error ${SERVE_ARGS:-} >/dev/null &
  SERVER=$!
  $BARE "$BARE_PORT" >/dev/null 2>&1 &
  BARE_SERVER=$!
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && curl -sf "http://127.0.0.1:$BARE_PORT/healthz" >/dev/null && return
    sleep 0.2
  done
}

# One wrk run at 8 clients (-t 2 -c 8 -d DURATION): label, URL, then wrk's other arguments.
run() {
  local label=$1 target=$2; shift 2
  local out
  out=$(wrk -t 2 -c 8 -d "$DURATION" --latency "$@" "$target")
  echo "$label: p50 $(echo "$out" | awk '$1 == "50%" { print $2 }'), p99 $(echo "$out" | awk '$1 == "99%" { print $2 }'), $(echo "$out" | awk '/Requests\/sec/ { print $2 }') req/s$(echo "$out" | grep -q Non-2xx && echo ", $(echo "$out" | grep Non-2xx | xargs)" || true)"
}

rss() { awk '/VmRSS/ { print $2 }' "/proc/$SERVER/status"; }  # kB

# Signs EMAIL (password "benchmark passphrase") in at URL through the form and prints the
# session cookie's value.
sign_in() {
  local jar="$WORK/cookies-$1" csrf
  csrf=$(curl -s -c "$jar" "$URL/sign-in" | sed -n 's/.*name="_csrf" value="\([^"]*\)".*/\1/p' | head -1)
  curl -s -b "$jar" -c "$jar" -o /dev/null --data-urlencode "_csrf=$csrf" --data-urlencode "email=$1" \
    --data-urlencode "password=benchmark passphrase" "$URL/sign-in"
  awk '$6 == "pc_session" { print $7 }' "$jar"
}
