"""A real device carries the console's effective policy over MDM, end to end against the console
binary: after every admin change through the API (assign, save a version, unassign) the
profiles the device holds — installed as iOS installs them, replaced by identifier, removed —
equal what the console says it gets, including the intersection of ASAM allowlists; Single App
Mode waits for supervision; five quick saves send one install. Runs on SQLite, and again on
PostgreSQL when make test provides one."""

import os
import time
import unittest
import uuid

import mdm_console
from mdm_console import TIMEOUT
from mdm_device import MDMDevice

POLICY = "com.payloadconsole.policy"
LOCK = "com.payloadconsole.policy.app-lock"


class PolicyTests(mdm_console.ConsoleTests):
    """The tests, run by a subclass per backend."""

    def api(self, method, path, body=None, expect=(200, 201, 204)):
        answer = self.console.admin_api.request(method, self.console.url(path), json=body, timeout=TIMEOUT)
        self.assertIn(answer.status_code, expect, f"{method} {path}: {answer.text}")
        return answer.json() if answer.content else None

    def group_with_device(self, **device_options):
        group = self.api("POST", "/api/v1/groups", {"name": f"Exam iPads {uuid.uuid4().hex[:6]}"})
        device = MDMDevice(**device_options)
        device.enroll(self.console.enrollment(group=group["id"])["profileURL"])
        device.drain()
        return group["id"], device

    def save(self, profile, payloads):
        """A new version, as a script saves one: If-Match names the version it edited."""
        current = self.console.admin_api.get(self.console.url(f"/api/v1/profiles/{profile}"), timeout=TIMEOUT)
        answer = self.console.admin_api.put(self.console.url(f"/api/v1/profiles/{profile}"), json={"name": current.json()["name"], "payloads": payloads},
                                            headers={"If-Match": current.headers["ETag"]}, timeout=TIMEOUT)
        self.assertEqual(answer.status_code, 200, answer.text)

    def profile(self, payloads):
        return self.api("POST", "/api/v1/profiles", {"name": f"Exam rules {uuid.uuid4().hex[:6]}", "payloads": payloads})["id"]

    @staticmethod
    def allowlist(*apps):
        return {"PayloadType": "com.apple.applicationaccess", "autonomousSingleAppModePermittedAppIDs": list(apps)}

    @staticmethod
    def lock(app):
        return {"PayloadType": "com.apple.app.lock", "App": {"Identifier": app}}

    def holds(self, device):
        """What the device holds, in the terms the test states its expectations in."""
        allowed = [sorted(payload["autonomousSingleAppModePermittedAppIDs"]) for payload in device.payloads("com.apple.applicationaccess")]
        locked = [payload["App"]["Identifier"] for payload in device.payloads("com.apple.app.lock")]
        return {"profiles": sorted(device.profiles), "allowlists": allowed, "locks": locked}

    def settles_to(self, device, expected, seconds=20):
        """The device checks in (as a push would make it) until it holds `expected`."""
        deadline = time.monotonic() + seconds
        while True:
            device.drain()
            held = self.holds(device)
            if held == expected or time.monotonic() > deadline:
                self.assertEqual(held, expected)
                return
            time.sleep(0.2)

    def wait_for_the_sync(self, seconds=20):
        """Until the console has brought every device in line with the latest policy change."""
        self.console.wait_for_the_sync(seconds)

    def test_the_device_holds_exactly_the_effective_policy_after_each_change(self):
        group, device = self.group_with_device(supervised=True)
        first = self.profile([self.allowlist("com.example.kiosk", "com.example.dictionary", "com.example.calculator"),
                              self.lock("com.example.kiosk")])
        self.api("POST", f"/api/v1/profiles/{first}/assignments", {"groupID": group})
        self.settles_to(device, {"profiles": [POLICY, LOCK], "locks": ["com.example.kiosk"],
                                 "allowlists": [["com.example.calculator", "com.example.dictionary", "com.example.kiosk"]]})

        # A second profile's allowlist: the device holds the intersection, as the device page says.
        second = self.profile([self.allowlist("com.example.kiosk", "com.example.dictionary")])
        self.api("POST", f"/api/v1/profiles/{second}/assignments", {"groupID": group})
        self.settles_to(device, {"profiles": [POLICY, LOCK], "locks": ["com.example.kiosk"],
                                 "allowlists": [["com.example.dictionary", "com.example.kiosk"]]})

        # A new version of the first replaces the profile on the device in place.
        self.save(first, [self.allowlist("com.example.kiosk")])
        self.settles_to(device, {"profiles": [POLICY], "locks": [], "allowlists": [["com.example.kiosk"]]})

        self.api("DELETE", f"/api/v1/profiles/{first}/assignments/{group}")
        self.settles_to(device, {"profiles": [POLICY], "locks": [], "allowlists": [["com.example.dictionary", "com.example.kiosk"]]})
        self.api("DELETE", f"/api/v1/profiles/{second}/assignments/{group}")
        self.settles_to(device, {"profiles": [], "locks": [], "allowlists": []})
        refused = [command for command in self.console.commands(self.console.device(device.serial)["id"]) if command["status"] == "error"]
        self.assertEqual(refused, [], "the device refused nothing it was sent")

    def test_single_app_mode_is_not_sent_to_an_unsupervised_device(self):
        group, device = self.group_with_device(supervised=False)
        profile = self.profile([self.lock("com.example.kiosk"), self.allowlist("com.example.kiosk")])
        self.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        self.settles_to(device, {"profiles": [POLICY], "locks": [], "allowlists": [["com.example.kiosk"]]})
        device_id = self.console.device(device.serial)["id"]
        held_back = self.console.rows(f"SELECT heldBack FROM mdm_device_profiles WHERE deviceID = {device_id} AND identifier = '{LOCK}'")
        self.assertIn("only on supervised devices", held_back[0][0])

    def test_five_quick_saves_send_one_install(self):
        group, device = self.group_with_device()
        profile = self.profile([self.allowlist("com.example.v0")])
        self.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        for number in range(1, 5):
            self.save(profile, [self.allowlist(f"com.example.v{number}")])
        self.wait_for_the_sync()
        installs = [command for command in self.console.commands(self.console.device(device.serial)["id"])
                    if command["requestType"] == "InstallProfile"]
        self.assertEqual(len(installs), 1, installs)
        self.settles_to(device, {"profiles": [POLICY], "locks": [], "allowlists": [["com.example.v4"]]})
        self.assertEqual(device.drain(), [], "nothing more")


    def test_managed_app_configuration_follows_the_policy_app_by_app(self):
        group, device = self.group_with_device()
        def configuration(server):
            return {"PayloadType": "com.payloadconsole.sdk.managed-app-config", "appIdentifier": "com.example.kiosk", "keys": [
                {"name": "serverURL", "type": "string", "required": True, "allowedValues": [], "value": {"string": {"_0": server}}},
                {"name": "retries", "type": "integer", "required": True, "allowedValues": [], "value": {"integer": {"_0": 3}}}]}
        profile = self.profile([configuration("https://a.example.com")])
        self.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        self.settles_to_configuration(device, {"com.example.kiosk": {"serverURL": "https://a.example.com", "retries": 3}})
        self.save(profile, [configuration("https://b.example.com")])
        self.settles_to_configuration(device, {"com.example.kiosk": {"serverURL": "https://b.example.com", "retries": 3}})
        self.api("DELETE", f"/api/v1/profiles/{profile}/assignments/{group}")
        self.settles_to_configuration(device, {})
        self.assertEqual(device.profiles, {}, "managed app configuration travels as Settings, not as a profile")

    def test_the_lock_waits_for_its_app_which_the_console_installs_first(self):
        group, device = self.group_with_device(supervised=True)
        bundle = f"com.example.lobby{uuid.uuid4().hex[:6]}"
        device.app_store[1234567890] = {"Identifier": bundle, "Name": "Lobby Check-In", "ShortVersion": "2.4.0", "Version": "240"}
        profile = self.profile([self.lock(bundle)])
        self.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        # The catalog does not say how devices get the app yet: the lock waits and says why.
        self.wait_for_the_sync()
        device.drain()
        device_id = self.console.device(device.serial)["id"]
        held_back = self.console.rows(f"SELECT heldBack FROM mdm_device_profiles WHERE deviceID = {device_id} AND identifier = '{LOCK}'")
        self.assertIn("does not say how devices get it", held_back[0][0])
        self.assertEqual(device.profiles, {})

        # Once it does, the console installs the app (managed, with its flags), then the lock.
        self.api("POST", "/api/v1/apps", {"name": "Lobby Check-In", "bundleID": bundle, "deliveryMethod": "appStore", "storeID": 1234567890,
                                          "removeWithManagement": True})
        self.settles_to(device, {"profiles": [LOCK], "locks": [bundle], "allowlists": []})
        self.assertEqual(device.managed_apps, {bundle: {"ManagementFlags": 1}})
        sent = [command["requestType"] for command in reversed(self.console.commands(device_id))]
        self.assertLess(sent.index("InstallApplication"), sent.index("InstallProfile"), sent)
        refused = [command for command in self.console.commands(device_id) if command["status"] == "error"]
        self.assertEqual(refused, [], "the device refused nothing it was sent")

    def test_an_admin_lets_a_device_leave_and_it_keeps_nothing_of_the_consoles(self):
        group, device = self.group_with_device(supervised=True)
        bundle = f"com.example.rounds{uuid.uuid4().hex[:6]}"
        device.manifests["https://apps.example.com/rounds.plist"] = {"Identifier": bundle, "Name": "Rounds", "ShortVersion": "1.0", "Version": "1"}
        self.api("POST", "/api/v1/apps", {"name": "Rounds", "bundleID": bundle, "deliveryMethod": "inHouse",
                                          "manifestURL": "https://apps.example.com/rounds.plist", "removeWithManagement": True})
        profile = self.profile([self.lock(bundle), self.allowlist(bundle)])
        self.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        self.settles_to(device, {"profiles": [POLICY, LOCK], "locks": [bundle], "allowlists": [[bundle]]})
        self.assertIn(bundle, device.managed_apps)
        device_id = self.console.device(device.serial)["id"]

        steps = self.api("POST", f"/api/v1/devices/{device_id}/mdm/release", {"removeFirst": True}, expect=(202,))["commands"]
        self.assertEqual([step["requestType"] for step in steps],
                         ["ProfileList", "RemoveProfile", "RemoveApplication", "RemoveProfile", "RemoveProfile"])
        again = self.console.admin_api.post(self.console.url(f"/api/v1/devices/{device_id}/mdm/release"), json={}, timeout=TIMEOUT)
        self.assertEqual((again.status_code, again.json()["error"]["code"]), (409, "device_leaving"))
        device.drain()
        # The lock went first, then the app with its data, the policy and the MDM profile; the device checked out.
        self.assertEqual((device.profiles, device.managed_apps, device.enrolled), ({}, {}, False))
        self.assertNotIn(bundle, [app["Identifier"] for app in device.apps])
        listed = self.console.device(device.serial)
        self.assertIsNotNone(listed, "the console keeps the device's record")
        state = self.console.rows(f"SELECT state FROM mdm_devices WHERE deviceID = {device_id}")
        self.assertEqual(state[0][0], "unenrolled")
        refused = [command for command in self.console.commands(device_id) if command["status"] == "error"]
        self.assertEqual(refused, [], "the device refused nothing it was sent")

    def settles_to_configuration(self, device, expected, seconds=20):
        deadline = time.monotonic() + seconds
        while True:
            device.drain()
            if device.app_configurations == expected or time.monotonic() > deadline:
                self.assertEqual(device.app_configurations, expected)
                return
            time.sleep(0.2)


class SQLitePolicyTests(PolicyTests, unittest.TestCase):
    pass


@unittest.skipUnless(os.environ.get("PAYLOAD_CONSOLE_TEST_POSTGRES"), "make test provides PostgreSQL")
class PostgresPolicyTests(PolicyTests, unittest.TestCase):
    postgres = True


if __name__ == "__main__":
    unittest.main()
