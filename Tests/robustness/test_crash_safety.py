"""A console killed with SIGKILL in the middle of writes keeps every write it acknowledged.

Writer threads create groups and apps through the API as fast as the console answers and
record every 201. While they are still writing, the console gets `kill -9` (no graceful
shutdown, no WAL checkpoint) and is started again on the same database file. Then:
  - every acknowledged group and app is there, with the id and name it was acknowledged with;
  - `PRAGMA integrity_check` says ok;
  - every group and app has the audit event written in the same transaction, so no write was
    half-applied by the crash.
This runs for a few rounds, each killing a console that has just recovered from the last kill.
"""

import itertools
import os
import shutil
import signal
import threading
import time
import unittest

import requests

import support

ROUNDS = 3
WRITERS_PER_KIND = 2
# Enough acknowledged writes that the kill lands in a busy stream, not at its start.
ACKS_BEFORE_KILL = 40


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


class CrashSafetyTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.console = support.Console().with_users()
        cls.token = cls.console.create_token("admin", "crash safety")
        cls.console.start()

    @classmethod
    def tearDownClass(cls):
        cls.console.stop()

    def test_acknowledged_writes_survive_kill_9(self):
        acked = {"group": [], "app": []}
        for round_number in range(ROUNDS):
            writers = [Writer(self.console, self.token, kind, f"Crash{round_number}w{index}")
                       for kind in acked for index in range(WRITERS_PER_KIND)]
            self.write_then_kill(writers)
            for writer in writers:
                self.assertFalse(writer.refused, f"{writer.kind} writes were refused before the kill: {writer.refused[:3]}")
                acked[writer.kind] += writer.acked
            self.console.restart()
            self.assert_all_there(acked)
            self.assert_intact()

    def test_a_graceful_stop_leaves_the_whole_database_in_its_file(self):
        """SIGTERM lets requests finish, then folds the write-ahead log into the database file:
        the file alone is a complete copy (what an admin backs up)."""
        api = support.api_client(self.token)
        names = [f"Graceful {n}" for n in range(20)]
        for name in names:
            self.assertEqual(api.post(self.console.url("/api/v1/groups"), json={"name": name}, timeout=10).status_code, 201)
        self.console.process.send_signal(signal.SIGTERM)
        self.assertEqual(self.console.process.wait(timeout=30), 0, "the console did not stop cleanly")
        wal = self.console.database + "-wal"
        self.assertEqual(os.path.getsize(wal) if os.path.exists(wal) else 0, 0, "the write-ahead log was left with data in it")
        # Read the file alone, as a backup would be read: a copy without its -wal.
        copy = os.path.join(os.path.dirname(self.console.database), "backup.sqlite")
        shutil.copyfile(self.console.database, copy)
        stored = {row[0] for row in support.query(copy, "SELECT name FROM device_groups")}
        self.assertTrue(set(names) <= stored, f"missing from the file alone: {sorted(set(names) - stored)[:5]}")
        self.console.restart()

    def write_then_kill(self, writers):
        for writer in writers:
            writer.start()
        deadline = time.time() + 30
        while sum(len(writer.acked) for writer in writers) < ACKS_BEFORE_KILL and time.time() < deadline:
            time.sleep(0.01)
        self.assertTrue(all(writer.is_alive() for writer in writers), "a writer stopped before the kill")
        self.console.kill()
        for writer in writers:
            writer.join(timeout=15)

    def assert_all_there(self, acked):
        api = support.api_client(self.token)
        stored = {
            "group": {g["id"]: g["name"] for g in api.get(self.console.url("/api/v1/groups"), timeout=10).json()["groups"]},
            "app": {a["id"]: a["name"] for a in api.get(self.console.url("/api/v1/apps"), timeout=10).json()["apps"]},
        }
        for kind, records in acked.items():
            lost = [(id, name) for id, name in records if stored[kind].get(id) != name]
            self.assertFalse(lost, f"{len(lost)} of {len(records)} acknowledged {kind} writes are missing after kill -9: {lost[:5]}")

    def assert_intact(self):
        database = self.console.database
        self.assertEqual(support.query(database, "PRAGMA integrity_check"), [("ok",)])
        unaudited = support.query(database, """
            SELECT 'group', name FROM device_groups
             WHERE name NOT IN (SELECT subject FROM audit_events WHERE action = 'group.created')
            UNION ALL
            SELECT 'app', bundleID FROM apps
             WHERE bundleID NOT IN (SELECT subject FROM audit_events WHERE action = 'app.created')""")
        self.assertFalse(unaudited, f"records without the audit event of their transaction: {unaudited[:5]}")


if __name__ == "__main__":
    unittest.main()
