"""A download of a million log lines streams: every line arrives, oldest first, and the
server's memory stays flat while it does (issue 13: "a streamed export of 1,000,000 lines with
flat memory"). The lines are written straight into the database file before the download —
and indexed as LogStore.append indexes a batch — because the
point here is the download, and an upload of a million lines through the API would take the
suite minutes on a debug build. Bounded by EXPORT_LINES (default 1,000,000)."""

import os
import sqlite3
import threading
import time
import unittest

import support

LINES = int(os.environ.get("EXPORT_LINES", "1000000"))
# The bound for a million lines; a chunk of 2,000 lines is well under a megabyte.
RSS_GROWTH_LIMIT_MB = 20


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class ExportMemoryTest(unittest.TestCase):
    def setUp(self):
        self.console = support.Console()
        self.console.start()
        self.token = self.console.create_token(role="helpdesk", name="export")

    def tearDown(self):
        self.console.stop()

    def fill(self, count):
        messages = ["Sync failed: E_TIMEOUT contacting api.example.com", "Opened the ward list",
                    "Printer \"Ward 3\" offline\n\tretrying", "Battery at 12% — café kiosk"]
        # Straight into the log store's file; the console's indexer reaches the lines behind it.
        with sqlite3.connect(support.logs_database(self.console.database), timeout=30) as connection:
            connection.executemany(
                "INSERT INTO device_logs (deviceID, deviceName, app, appVersion, kind, level, message, loggedAt, receivedAt, byteCount)"
                " VALUES (NULL, ?, 'com.example.clinicnotes', '2.4', 'application', 'error', ?, ?, ?, ?)",
                ((f"Ward iPad {n % 40}", messages[n % 4], 1_800_000_000 + n / 10, 1_800_000_000 + n / 10, len(messages[n % 4]))
                 for n in range(count)))
        connection.close()

    def wait_until_indexed(self, client):
        # The indexer reaches the lines on the log store's writer, whose page cache (64 MB, for
        # floods) fills as it does: memory that is the index's, not the download's. Measured
        # once the index has every line, the only work left is the download.
        deadline = time.time() + 300
        while time.time() < deadline:
            answer = client.get(self.console.url("/api/v1/logs?limit=1"), timeout=support.TIMEOUT)
            self.assertEqual(answer.status_code, 200)
            if answer.json()["index"]["unindexedLines"] == 0:
                return
            time.sleep(0.5)
        self.fail("the index did not reach every line within 300 s")

    def test_a_million_lines_stream_with_flat_server_memory(self):
        self.fill(LINES)
        client = support.api_client(self.token)
        self.wait_until_indexed(client)
        # One small download first, so what a first request allocates once is not counted.
        warm = client.get(self.console.url("/api/v1/logs/export?q=battery&from=2027-01-15T08:00:00Z&to=2027-01-15T08:00:10Z"),
                          timeout=support.TIMEOUT)
        self.assertEqual(warm.status_code, 200)
        pid = self.console.process.pid
        before = rss_mb(pid)
        peak = [before]
        done = threading.Event()

        def sample():
            while not done.is_set():
                peak[0] = max(peak[0], rss_mb(pid))
                time.sleep(0.1)

        sampler = threading.Thread(target=sample)
        sampler.start()
        started = time.time()
        lines, first, last = 0, None, b""
        try:
            with client.get(self.console.url("/api/v1/logs/export?format=ndjson"), stream=True, timeout=120) as response:
                self.assertEqual(response.status_code, 200)
                for chunk in response.iter_content(chunk_size=1 << 16):
                    if first is None:
                        first = chunk[:200]
                    lines += chunk.count(b"\n")
                    last = (last + chunk)[-400:]
        finally:
            done.set()
            sampler.join()
        seconds = time.time() - started
        print(f"\n    {lines:,} lines in {seconds:.1f} s ({lines / seconds:,.0f} lines/s, debug build); "
              f"server RSS {before:.0f} MB before, {peak[0]:.0f} MB at most", flush=True)
        self.assertEqual(lines, LINES, "every line arrives")
        self.assertIn(b'"id":1,', first, "oldest first")
        self.assertIn(f'"id":{LINES},'.encode(), last)
        self.assertLess(peak[0] - before, RSS_GROWTH_LIMIT_MB, f"server memory grew from {before:.0f} MB to {peak[0]:.0f} MB")
        self.assertEqual(self.console.healthz(), 200)


if __name__ == "__main__":
    unittest.main()
