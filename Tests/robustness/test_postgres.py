"""The crash-safety and schemathesis tests again, with the console on PostgreSQL (a schema of
its own on the server `make test` starts): every acknowledged write survives kill -9, every
acknowledged log batch is stored whole and once and found by search, and the API answers
schemathesis as it does on SQLite. There is no index behind the writer to kill the console in
(each line carries its search words from the moment it is stored), no file to check."""

import unittest

import support
import test_crash_safety as crash_safety
import test_schemathesis as schemathesis

REASON = "PAYLOAD_CONSOLE_TEST_POSTGRES names no PostgreSQL server (make test starts one)"


@unittest.skipUnless(support.POSTGRES or support.POSTGRES_REQUIRED, REASON)
class PostgresCrashSafetyTest(crash_safety.CrashSafetyTest):
    rounds = ["mid-stream", "mid-stream"]
    # The file-copy check of a graceful stop is SQLite's alone.
    test_a_graceful_stop_leaves_the_whole_database_in_its_file = None

    @classmethod
    def make_console(cls):
        return support.Console(postgres=True)

    def unindexed_lines(self):
        return 0

    def stored_messages(self):
        return [text for (text,) in self.console.pg_query(
            "SELECT message FROM device_logs WHERE message LIKE 'crash-%' ORDER BY id", logs=True)]

    def assert_index_catches_up_without_doubles(self):
        """Every line carries its words: none that has a word to find was stored without them."""
        [(missing,)] = self.console.pg_query(
            "SELECT count(*) FROM device_logs WHERE search = ''::tsvector AND message ~ '[A-Za-z0-9]'", logs=True)
        self.assertEqual(missing, "0", "lines were stored without their search words")

    def assert_intact(self):
        unaudited = self.console.pg_query("""
            SELECT 'group', name FROM device_groups
             WHERE name NOT IN (SELECT subject FROM audit_events WHERE action = 'group.created')
            UNION ALL
            SELECT 'app', bundleID FROM apps
             WHERE bundleID NOT IN (SELECT subject FROM audit_events WHERE action = 'app.created')""")
        self.assertFalse(unaudited, f"records without the audit event of their transaction: {unaudited[:5]}")


@unittest.skipUnless(support.POSTGRES or support.POSTGRES_REQUIRED, REASON)
class PostgresSchemathesisTest(schemathesis.SchemathesisTest):
    backend = "postgres"

    @classmethod
    def make_console(cls):
        return support.Console(postgres=True)


if __name__ == "__main__":
    unittest.main()
