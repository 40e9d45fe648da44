"""The same console on SQLite and on PostgreSQL, asked the same things, answers the same: times
at the edges of what the console keeps, case folding in the device search, the NUL character,
and numbers too large for any id or limit. Neither ends the process, neither answers 5xx."""

import json
import unittest

import support

REASON = "PAYLOAD_CONSOLE_TEST_POSTGRES names no PostgreSQL server (make test starts one)"
APP = "com.example.robust"

# Sent by devices; each must come back as the same instant from both backends.
EDGE_TIMES = ["0001-01-01T00:00:00Z", "1899-12-31T23:59:59.500Z", "1582-10-04T12:00:00Z",
              "2026-11-23T10:30:00.123+01:00", "9999-12-31T23:59:59.999Z"]
# Outside the range in UTC: refused by name, on both.
OUTSIDE_TIMES = ["0000-12-31T23:59:59Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00", "10000-01-01T00:00:00Z"]
NAMES = ["ΣΊΣΥΦΟΣ", "σίσυφος front desk", "İstanbul desk", "ISTANBUL kiosk", "Straße 3", "STRASSE 4", "Café Ünïcode"]
SEARCHES = ["σίσυφος", "ΣΊΣΥΦΟΣ", "İSTANBUL", "istanbul", "strasse", "STRAßE", "café", "CAFÉ", "ss", "İ", "ς"]
HUGE = ["99999999999999999999", "9223372036854775808", "-9223372036854775809", "1e30", "0x10"]


@unittest.skipUnless(support.POSTGRES or support.POSTGRES_REQUIRED, REASON)
class DifferentialTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.consoles = []
        for postgres in (False, True):
            console = support.Console(postgres=postgres)
            console.add_user(support.ADMIN, "admin")
            token = console.create_token("admin", "differential")
            console.start()
            [device_token] = support.devices_that_log(console, token, 1, APP)
            api = support.api_client(token)
            for number, name in enumerate(NAMES):
                created = api.post(console.url("/api/v1/devices"), json={
                    "name": name, "model": "iPhone", "osVersion": "18.1", "serialNumber": f"DMPD{number:06d}",
                    "udid": f"00008101-{number:016d}", "isSupervised": False}, timeout=support.TIMEOUT)
                assert created.status_code == 201, support.describe(created)
            cls.consoles.append((console, api, support.api_client(device_token)))

    @classmethod
    def tearDownClass(cls):
        for console, _, _ in cls.consoles:
            console.stop()

    def both(self, ask):
        """`ask(console, api, device)` on each backend: (SQLite's answer, PostgreSQL's)."""
        answers = [ask(console, api, device) for console, api, device in self.consoles]
        for (console, _, _), answer in zip(self.consoles, answers):
            self.assertTrue(console.is_alive(), "the console ended:\n" + console.log_tail())
            self.assertLess(answer.status_code, 500, support.describe(answer))
        return answers

    @staticmethod
    def line(timestamp, message):
        return json.dumps({"app": APP, "level": "error", "type": "application", "timestamp": timestamp, "message": message})

    def test_edge_times_come_back_as_the_same_instant(self):
        def upload(console, api, device):
            body = "\n".join(self.line(time, f"edge {number}") for number, time in enumerate(EDGE_TIMES)) + "\n"
            return device.post(console.url("/api/v1/device/logs"), data=body.encode(),
                               headers={"Content-Type": "application/x-ndjson"}, timeout=support.TIMEOUT)
        for answer in self.both(upload):
            self.assertEqual(answer.status_code, 200, support.describe(answer))

        def export(console, api, device):
            return api.get(console.url("/api/v1/logs/export?format=ndjson&q=edge"), timeout=support.TIMEOUT)
        sqlite, postgres = self.both(export)
        times = [sorted((line["message"], line["timestamp"]) for line in map(json.loads, answer.text.splitlines()))
                 for answer in (sqlite, postgres)]
        self.assertEqual(times[0], times[1])
        self.assertIn(("edge 0", "0001-01-01T00:00:00Z"), times[1])
        self.assertIn(("edge 4", "9999-12-31T23:59:59.999Z"), times[1])

        for query in ["to=0001-01-01T00:00:00.001Z", "from=9999-12-31T23:59:59.999Z", "to=0000-06-01T00:00:00Z"]:
            sqlite, postgres = self.both(lambda console, api, device: api.get(console.url(f"/api/v1/logs?q=edge&{query}"), timeout=support.TIMEOUT))
            self.assertEqual(sqlite.status_code, postgres.status_code, query)
            if sqlite.status_code == 200:
                self.assertEqual([line["message"] for line in sqlite.json()["logs"]], [line["message"] for line in postgres.json()["logs"]], query)
                self.assertEqual(len(sqlite.json()["logs"]), 1, query)
            else:
                self.assertEqual(sqlite.json(), postgres.json(), query)

    def test_times_outside_the_range_are_refused_alike(self):
        for time in OUTSIDE_TIMES:
            def upload(console, api, device):
                return device.post(console.url("/api/v1/device/logs"), data=(self.line(time, "outside") + "\n").encode(),
                                   headers={"Content-Type": "application/x-ndjson"}, timeout=support.TIMEOUT)
            sqlite, postgres = self.both(upload)
            self.assertEqual((sqlite.status_code, sqlite.json()["error"]["field"]), (422, "lines.1.timestamp"), time)
            self.assertEqual(sqlite.json(), postgres.json(), time)

    def test_the_device_search_folds_case_alike(self):
        for typed in SEARCHES:
            sqlite, postgres = self.both(lambda console, api, device: api.get(console.url("/api/v1/devices"), params={"q": typed, "limit": 100},
                                                                              timeout=support.TIMEOUT))
            names = [sorted(device["name"] for device in answer.json()["devices"]) for answer in (sqlite, postgres)]
            self.assertEqual(names[0], names[1], typed)
        self.assertEqual(sorted(device["name"] for device in postgres.json()["devices"]), ["ΣΊΣΥΦΟΣ", "σίσυφος front desk"],
                         "a final ς is a σ: it finds the names starting with one, on both")

    def test_nul_is_refused_alike_by_name(self):
        for path in ["/api/v1/logs?app=%00", "/api/v1/logs?signature=%00", "/api/v1/logs/crashes?app=%00", "/api/v1/devices?q=a%00b"]:
            sqlite, postgres = self.both(lambda console, api, device: api.get(console.url(path), timeout=support.TIMEOUT))
            self.assertEqual(sqlite.status_code, 400, path)
            self.assertEqual(sqlite.json(), postgres.json(), path)
        body = {"name": "Nul\u0000group"}
        sqlite, postgres = self.both(lambda console, api, device: api.post(console.url("/api/v1/groups"), json=body, timeout=support.TIMEOUT))
        self.assertEqual((sqlite.status_code, sqlite.json()["error"]["code"]), (postgres.status_code, postgres.json()["error"]["code"]))

    def test_huge_numbers_are_refused_alike(self):
        for number in HUGE:
            for path in [f"/api/v1/devices/{number}", f"/api/v1/logs?limit={number}", f"/api/v1/logs?after={number}",
                         f"/api/v1/devices?after={number}", f"/api/v1/profiles/{number}/versions"]:
                sqlite, postgres = self.both(lambda console, api, device: api.get(console.url(path), timeout=support.TIMEOUT))
                self.assertEqual(sqlite.status_code, postgres.status_code, path)
            raw = '{"name": "Big", "parentID": %s}' % number
            sqlite, postgres = self.both(lambda console, api, device: api.post(console.url("/api/v1/groups"), data=raw,
                                                                               headers={"Content-Type": "application/json"}, timeout=support.TIMEOUT))
            self.assertEqual(sqlite.status_code, postgres.status_code, raw)
            self.assertGreaterEqual(sqlite.status_code, 400, raw)


if __name__ == "__main__":
    unittest.main()
