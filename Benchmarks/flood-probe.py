#!/usr/bin/env python3
"""What the people working in the console feel while devices flood it with logs (issue 25).

Paced, not saturating: an admin saves a profile through the API every 100 ms, devices check in
every 20 ms (rotating over tokens, answered 304 with the ETag they hold), and a helpdesk
script searches the logs every 500 ms for a rare word (the worst case for lines not yet
indexed: the whole unindexed tail is scanned). Each on its own keep-alive connection, latency
measured around the request. Prints one JSON object: p50/p95/p99 in ms per kind, and the largest
index lag a search answer reported.

Usage: flood-probe.py URL ADMIN_TOKEN HELPDESK_TOKEN DEVICE_TOKENS_FILE SECONDS
       flood-probe.py report LABEL RESULT_JSON      (one line per kind)
       flood-probe.py compare IDLE_JSON BURST_JSON  (the burst against idle, with the targets)
"""

import http.client
import json
import sys
import threading
import time
import urllib.parse


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else None


class Probe(threading.Thread):
    def __init__(self, url, interval, seconds, make_request):
        super().__init__(daemon=True)
        parsed = urllib.parse.urlparse(url)
        self.host, self.port = parsed.hostname, parsed.port
        self.interval, self.seconds, self.make_request = interval, seconds, make_request
        self.latencies, self.failures, self.answers = [], [], []

    def run(self):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        end = time.monotonic() + self.seconds
        next_at = time.monotonic()
        n = 0
        while time.monotonic() < end:
            method, path, headers, body = self.make_request(n)
            start = time.monotonic()
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException) as error:
                self.failures.append(str(error))
                connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
                continue
            self.latencies.append((time.monotonic() - start) * 1000)
            if response.status >= 400:
                self.failures.append(f"{response.status} {data[:200]!r}")
            else:
                self.answers.append(data)
            n += 1
            next_at += self.interval
            time.sleep(max(0, next_at - time.monotonic()))

    def summary(self):
        return {"requests": len(self.latencies), "failures": len(self.failures), "firstFailure": self.failures[:1],
                "p50": percentile(self.latencies, 0.50), "p95": percentile(self.latencies, 0.95),
                "p99": percentile(self.latencies, 0.99), "max": max(self.latencies, default=None)}


def main():
    url, admin, helpdesk, tokens_file, seconds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
    parsed = urllib.parse.urlparse(url)
    setup = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
    # 200 devices that already hold their policy's ETag, as devices checking in do: answered 304.
    devices = []
    for token in [line.strip() for line in open(tokens_file) if line.strip()][:200]:
        setup.request("GET", "/api/v1/device/policy", headers={"Authorization": f"Bearer {token}"})
        answer = setup.getresponse()
        answer.read()
        devices.append([token, answer.getheader("ETag")] if answer.getheader("ETag") else [token])
    auth = {"Authorization": f"Bearer {admin}", "Content-Type": "application/json"}
    identifier = f"com.example.flood.probe{int(time.time() * 1000)}"
    setup.request("POST", "/api/v1/profiles", body=json.dumps({"name": "Flood probe", "identifier": identifier}), headers=auth)
    created = setup.getresponse()
    profile = json.loads(created.read())["id"]

    def save(n):
        return "PUT", f"/api/v1/profiles/{profile}", dict(auth, **{"If-Match": "*"}), json.dumps({"name": f"Flood probe {n}"})

    def check_in(n):
        token, *tag = devices[n % len(devices)]
        headers = {"Authorization": f"Bearer {token}"}
        if tag:
            headers["If-None-Match"] = tag[0]
        return "GET", "/api/v1/device/policy", headers, None

    def search(n):
        return "GET", "/api/v1/logs?q=quokka&limit=50", {"Authorization": f"Bearer {helpdesk}"}, None

    probes = {"adminSave": Probe(url, 0.1, seconds, save), "checkIn": Probe(url, 0.02, seconds, check_in),
              "search": Probe(url, 0.5, seconds, search)}
    for probe in probes.values():
        probe.start()
    for probe in probes.values():
        probe.join()
    result = {kind: probe.summary() for kind, probe in probes.items()}
    lags = [json.loads(answer)["index"]["unindexedLines"] for answer in probes["search"].answers]
    result["search"]["largestUnindexed"] = max(lags, default=0)
    print(json.dumps(result))


def report(label, result):
    for kind in ("adminSave", "checkIn", "search"):
        k = result[kind]
        extra = f", index up to {k['largestUnindexed']:,} lines behind" if kind == "search" else ""
        print(f"{label} {kind}: p50 {k['p50']:.1f} ms, p95 {k['p95']:.1f} ms, p99 {k['p99']:.1f} ms "
              f"over {k['requests']} requests, {k['failures']} failed{extra}")


def compare(idle, burst):
    save, check_in = burst["adminSave"]["p95"] / idle["adminSave"]["p95"], burst["checkIn"]["p99"] / idle["checkIn"]["p99"]
    print(f"admin save p95 {burst['adminSave']['p95']:.1f} ms = {save:.2f}x idle (target <= 3x)")
    print(f"check-in p99 {burst['checkIn']['p99']:.1f} ms = {check_in:.2f}x idle (target <= 2x)")
    print(f"search p99 during the burst {burst['search']['p99']:.0f} ms (target <= 1,000 ms)")


if __name__ == "__main__":
    if sys.argv[1] == "report":
        report(sys.argv[2], json.loads(sys.argv[3]))
    elif sys.argv[1] == "compare":
        compare(json.loads(sys.argv[2]), json.loads(sys.argv[3]))
    else:
        main()
