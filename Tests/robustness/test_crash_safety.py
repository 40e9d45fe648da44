"""A console killed with SIGKILL in the middle of writes keeps every write it acknowledged.

Writer threads create groups and apps through the API, and devices upload batches of log lines
(`POST /api/v1/device/logs`, every line marked with its batch and its number), as fast as the
console answers; each records what was acknowledged. While they are still writing, the console
gets `kill -9` (no graceful shutdown, no WAL checkpoint) and is started again on the same
files. Then:
  - every acknowledged group and app is there, with the id and name it was acknowledged with;
  - every acknowledged log batch is in the log store exactly once, line for line; the batch in
    flight when the console died is wholly there or wholly absent, never in part;
  - once the full-text index has caught up with the log table, a search through the API finds
    each acknowledged batch of the round, no line is in the index twice and FTS5's own
    integrity check passes;
  - `PRAGMA integrity_check` says ok on the console's file and on the log store's;
  - every group and app has the audit event written in the same transaction, so no write was
    half-applied by the crash.
This runs for a few rounds, each killing a console that has just recovered from the last kill;
one round waits until the index is INDEX_BEHIND_BEFORE_KILL lines behind the log table and reads
from the files the kill left that it still was, so the restarted console has to resume indexing
at its mark (the kill may land in one of the indexer's transactions or while it gathers lines).
"""

import collections
import contextlib
import datetime
import itertools
import json
import os
import re
import shutil
import signal
import sqlite3
import tempfile
import threading
import time
import unittest

import requests

import support

# What each round waits for before the kill: enough acknowledged writes that it lands in a busy
# stream, or also an index that many lines behind the log table.
ROUNDS = ["mid-stream", "index behind", "mid-stream"]
WRITERS_PER_KIND = 2
ACKS_BEFORE_KILL = 40
LOG_DEVICES = 2
LOG_WRITERS_PER_DEVICE = 2
BATCH_LINES = 300
LOG_BATCHES_BEFORE_KILL = 60
# Lines waiting for the index when the console dies in the round that waits for it: a few
# batches, which the indexer (LogIndexer) is gathering or taking in one transaction.
INDEX_BEHIND_BEFORE_KILL = 5 * BATCH_LINES
# How long the index may take to catch up after a restart (the bound after a burst).
CATCH_UP_SECONDS = 60

BATCH_LINE = re.compile(r"^(crash-\w+-w\d+-b\d+)-l(\d+) ")
# The batch test_a_graceful_stop… uploads before its SIGTERM.
GRACEFUL_BATCH = "crash-graceful-w0-b0"


class Writer(threading.Thread):
    """Creates one kind of record until the console stops answering."""

    KINDS = {
        "group": ("/api/v1/groups", lambda name: {"name": name}),
        "app": ("/api/v1/apps", lambda name: {"name": name, "bundleID": f"com.example.{name.replace(' ', '').lower()}"}),
    }

    def __init__(self, console, token, kind, prefix):
        super().__init__(daemon=True)
        self.console, self.kind, self.prefix = console, kind, prefix
        self.session = support.api_client(token)
        self.acked = []      # (id, name) of every 201
        self.refused = []    # any other answer, which should not happen here

    def run(self):
        path, body = self.KINDS[self.kind]
        for n in itertools.count():
            name = f"{self.prefix} {n}"
            try:
                response = self.session.post(self.console.url(path), json=body(name), timeout=10)
            except requests.RequestException:
                return  # killed: whatever was in flight was never acknowledged
            if response.status_code == 201:
                self.acked.append((response.json()["id"], name))
            else:
                self.refused.append(support.describe(response))


class LogWriter(threading.Thread):
    """Uploads batches of BATCH_LINES log lines as one device until the console stops answering.
    Line n of batch `crash-r1-w2-b7` says `crash-r1-w2-b7-ln …`, so what is stored can be
    counted batch by batch and line by line."""

    kind = "log"

    def __init__(self, console, device_token, prefix):
        super().__init__(daemon=True)
        self.console, self.prefix = console, prefix
        self.session = uploader(device_token)
        self.acked = []       # markers of batches answered 200 with every line stored
        self.in_flight = []   # the batch sent when the console died: stored whole or not at all
        self.refused = []     # any other answer, which should not happen here

    def run(self):
        for n in itertools.count():
            marker = f"{self.prefix}-b{n}"
            try:
                response = self.session.post(self.console.url("/api/v1/device/logs"), data=batch(marker), timeout=30)
            except requests.RequestException:
                self.in_flight.append(marker)
                return
            if response.status_code == 200 and response.json().get("stored") == BATCH_LINES:
                self.acked.append(marker)
            else:
                self.refused.append(support.describe(response))


def uploader(device_token):
    session = support.api_client(device_token)
    session.headers["Content-Type"] = "application/x-ndjson"
    return session


def batch(marker):
    """One upload's NDJSON body: BATCH_LINES lines logged now, at a level the devices' policy
    here collects."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return "\n".join(json.dumps({"app": "com.example.robust", "appVersion": "1.0", "level": "error", "type": "application",
                                 "timestamp": now, "message": message(marker, n)}) for n in range(BATCH_LINES)).encode()


def message(marker, n):
    return f"{marker}-l{n} sync failed: E_TIMEOUT contacting api.example.com"


class CrashSafetyTest(unittest.TestCase):
    rounds = ROUNDS

    @classmethod
    def make_console(cls):
        return support.Console()

    @classmethod
    def setUpClass(cls):
        cls.console = cls.make_console().with_users()
        cls.token = cls.console.create_token("admin", "crash safety")
        cls.console.start()
        cls.device_tokens = support.devices_that_log(cls.console, cls.token, LOG_DEVICES, app="com.example.robust")

    @classmethod
    def tearDownClass(cls):
        cls.console.stop()

    def test_acknowledged_writes_survive_kill_9(self):
        acked = {"group": [], "app": []}
        log_batches = {"acked": [], "in_flight": []}
        for round_number, moment in enumerate(self.rounds):
            writers = [Writer(self.console, self.token, kind, f"Crash{round_number}w{index}")
                       for kind in acked for index in range(WRITERS_PER_KIND)]
            log_writers = [LogWriter(self.console, self.device_tokens[index % LOG_DEVICES], f"crash-r{round_number}-w{index}")
                           for index in range(LOG_DEVICES * LOG_WRITERS_PER_DEVICE)]
            self.write_then_kill(writers, log_writers, moment)
            for writer in writers + log_writers:
                self.assertFalse(writer.refused, f"{writer.kind} writes were refused before the kill: {writer.refused[:3]}")
            for writer in writers:
                acked[writer.kind] += writer.acked
            round_batches = [marker for writer in log_writers for marker in writer.acked]
            log_batches["acked"] += round_batches
            log_batches["in_flight"] += [marker for writer in log_writers for marker in writer.in_flight]
            self.console.restart()
            self.assert_all_there(acked)
            self.assert_log_batches_whole(log_batches)
            self.assert_index_catches_up_without_doubles()
            self.assert_search_finds(round_batches)
            self.assert_intact()

    def test_a_graceful_stop_leaves_the_whole_database_in_its_file(self):
        """SIGTERM lets requests finish, then folds each write-ahead log into its database file:
        the console's file and the log store's file alone are a complete copy (what an admin
        backs up)."""
        api = support.api_client(self.token)
        names = [f"Graceful {n}" for n in range(20)]
        for name in names:
            self.assertEqual(api.post(self.console.url("/api/v1/groups"), json={"name": name}, timeout=10).status_code, 201)
        uploaded = uploader(self.device_tokens[0]).post(self.console.url("/api/v1/device/logs"), data=batch(GRACEFUL_BATCH), timeout=30)
        self.assertEqual(uploaded.status_code, 200, support.describe(uploaded))
        self.console.process.send_signal(signal.SIGTERM)
        self.assertEqual(self.console.process.wait(timeout=30), 0, "the console did not stop cleanly")
        for database in (self.console.database, support.logs_database(self.console.database)):
            wal = database + "-wal"
            self.assertEqual(os.path.getsize(wal) if os.path.exists(wal) else 0, 0,
                             f"the write-ahead log of {os.path.basename(database)} was left with data in it")
        # Read the files alone, as a backup would be read: copies without their -wal.
        copy = os.path.join(os.path.dirname(self.console.database), "backup.sqlite")
        shutil.copyfile(self.console.database, copy)
        stored = {row[0] for row in support.query(copy, "SELECT name FROM device_groups")}
        self.assertTrue(set(names) <= stored, f"missing from the file alone: {sorted(set(names) - stored)[:5]}")
        logs_copy = os.path.join(os.path.dirname(self.console.database), "backup-logs.sqlite")
        shutil.copyfile(support.logs_database(self.console.database), logs_copy)
        self.assertEqual(lines_by_batch(stored_messages(logs_copy)).get(GRACEFUL_BATCH), list(range(BATCH_LINES)),
                         "the uploaded batch is not whole in the log store's file alone")
        self.console.restart()

    def write_then_kill(self, writers, log_writers, moment):
        for writer in writers + log_writers:
            writer.start()
        deadline = time.time() + 30
        while time.time() < deadline and not (
                sum(len(writer.acked) for writer in writers) >= ACKS_BEFORE_KILL
                and sum(len(writer.acked) for writer in log_writers) >= LOG_BATCHES_BEFORE_KILL
                and (moment != "index behind" or self.unindexed_lines() >= INDEX_BEHIND_BEFORE_KILL)):
            time.sleep(0.01)
        self.assertTrue(all(writer.is_alive() for writer in writers + log_writers), "a writer stopped before the kill")
        self.console.kill()
        for writer in writers + log_writers:
            writer.join(timeout=15)
        # Read from the files as the kill left them.
        behind = self.unindexed_lines()
        batches = sum(len(writer.acked) for writer in log_writers)
        print(f"\n    {moment}: {batches} log batches ({batches * BATCH_LINES:,} lines) acknowledged, "
              f"the index {behind:,} lines behind at the kill", flush=True)
        if moment == "index behind":
            self.assertGreater(behind, 0, "the index had caught up before the kill; the round did not test a kill behind the writer")

    def unindexed_lines(self):
        """Lines in the log table after the indexer's mark, read beside the console."""
        return support.query(self.logs, "SELECT coalesce(max(id), 0) - (SELECT indexedThrough FROM log_index_progress) FROM device_logs")[0][0]

    @property
    def logs(self):
        return support.logs_database(self.console.database)

    def assert_all_there(self, acked):
        api = support.api_client(self.token)
        stored = {
            "group": {g["id"]: g["name"] for g in api.get(self.console.url("/api/v1/groups"), timeout=10).json()["groups"]},
            "app": {a["id"]: a["name"] for a in api.get(self.console.url("/api/v1/apps"), timeout=10).json()["apps"]},
        }
        for kind, records in acked.items():
            lost = [(id, name) for id, name in records if stored[kind].get(id) != name]
            self.assertFalse(lost, f"{len(lost)} of {len(records)} acknowledged {kind} writes are missing after kill -9: {lost[:5]}")

    def stored_messages(self):
        """The crash test's lines in the log store, in the order stored, read beside the console."""
        return stored_messages(self.logs)

    def assert_log_batches_whole(self, batches):
        stored = lines_by_batch(self.stored_messages())
        acked, in_flight = set(batches["acked"]), set(batches["in_flight"])
        whole = list(range(BATCH_LINES))
        lost = sorted(marker for marker in acked if marker not in stored)
        self.assertFalse(lost, f"{len(lost)} of {len(acked)} acknowledged log batches are missing after kill -9: {lost[:5]}")
        broken = {marker: f"{len(numbers)} lines, {len(set(numbers))} distinct"
                  for marker, numbers in stored.items() if numbers != whole and (marker in acked or marker in in_flight)}
        self.assertFalse(broken, f"log batches stored in part or twice: {dict(list(broken.items())[:5])}")
        unknown = sorted(set(stored) - acked - in_flight - {GRACEFUL_BATCH})
        self.assertFalse(unknown, f"lines of batches that were never sent or were refused: {unknown[:5]}")

    def assert_index_catches_up_without_doubles(self):
        deadline = time.time() + CATCH_UP_SECONDS
        while self.unindexed_lines() > 0 and time.time() < deadline:
            time.sleep(0.2)
        self.assertEqual(self.unindexed_lines(), 0, f"the index did not catch up with the log table within {CATCH_UP_SECONDS} s")
        [(indexed, lines)] = support.query(self.logs, "SELECT (SELECT count(*) FROM device_log_search_docsize), (SELECT count(*) FROM device_logs)")
        self.assertEqual(indexed, lines, "the full-text index holds a different number of lines than the log table")

    def assert_search_finds(self, markers):
        """Each batch through the API, by its marker: every line of it, and only those."""
        api = support.api_client(self.token)
        for marker in markers:
            response = api.get(self.console.url("/api/v1/logs"), params={"q": marker, "limit": 500}, timeout=support.TIMEOUT)
            self.assertEqual(response.status_code, 200, support.describe(response))
            found = sorted(line["message"] for line in response.json()["logs"])
            self.assertEqual(found, sorted(message(marker, n) for n in range(BATCH_LINES)),
                             f"searching {marker} did not find each of its lines once, and only them")

    def assert_intact(self):
        database = self.console.database
        self.assertEqual(support.query(database, "PRAGMA integrity_check"), [("ok",)])
        self.assertEqual(support.query(self.logs, "PRAGMA integrity_check"), [("ok",)], "the log store's file")
        self.assertEqual(fts_integrity_check(self.logs), None)
        unaudited = support.query(database, """
            SELECT 'group', name FROM device_groups
             WHERE name NOT IN (SELECT subject FROM audit_events WHERE action = 'group.created')
            UNION ALL
            SELECT 'app', bundleID FROM apps
             WHERE bundleID NOT IN (SELECT subject FROM audit_events WHERE action = 'app.created')""")
        self.assertFalse(unaudited, f"records without the audit event of their transaction: {unaudited[:5]}")


def stored_messages(database):
    return [text for (text,) in support.query(database, "SELECT message FROM device_logs WHERE message LIKE 'crash-%' ORDER BY id")]


def lines_by_batch(messages):
    """The line numbers stored of each batch, by its marker, in the order stored."""
    stored = collections.defaultdict(list)
    for text in messages:
        match = BATCH_LINE.match(text)
        if match:
            stored[match.group(1)].append(int(match.group(2)))
    return stored


def fts_integrity_check(database):
    """FTS5's check that its index is sound and holds exactly the rows of its content table,
    which needs a writable connection: run on a snapshot copied through SQLite's backup from a
    read-only connection beside the running console. None when it passes, else its error."""
    with tempfile.TemporaryDirectory() as folder:
        copy = sqlite3.connect(os.path.join(folder, "logs.sqlite"))
        try:
            with contextlib.closing(support.read_only(database)) as source:
                source.backup(copy)
            copy.execute("INSERT INTO device_log_search(device_log_search, rank) VALUES ('integrity-check', 1)")
            return None
        except sqlite3.DatabaseError as error:
            return str(error)
        finally:
            copy.close()


if __name__ == "__main__":
    unittest.main()
