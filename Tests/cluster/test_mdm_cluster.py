"""Real devices across two instances on one PostgreSQL database: a device enrolls through one
instance and checks in on the other; a push certificate uploaded through one pushes from the
other; two check-ins of one device racing on both instances never both get the command; and
policy changes made through both instances queue one set of commands and reach the device."""

import os
import sys
import threading
import time
import unittest
import uuid

import requests

import cluster
import support
from cluster import TIMEOUT

sys.path.insert(0, os.path.join(support.ROOT, "Tests", "mdm"))
import mdm_console  # noqa: E402  (needs the path above)
from mdm_device import MDMDevice  # noqa: E402


class MDMAcrossInstancesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.postgres = cluster.shared_postgres()
        cls.cluster = cluster.Cluster(cls.postgres, count=2)
        cls.addClassCleanup(cls.cluster.remove)
        cls.cluster.add_user(cluster.ADMIN, "admin")
        cls.token = cls.cluster.create_token()
        cls.topic, cls.pem, certificate = mdm_console.push_certificate(folder=cls.cluster.folder)
        cls.push_service = mdm_console.PushStandIn(cls.topic, certificate)
        cls.addClassCleanup(cls.push_service.stop)
        for instance in cls.cluster.instances:
            instance.extra_arguments = ["--apns-url", cls.push_service.url, "--apns-ca", cls.push_service.certificate]
        cls.cluster.start()
        cls.a, cls.b = cls.cluster.instances

    def api(self, instance, method, path, headers=None, **kwargs):
        return requests.request(method, instance.url(path), headers={"Authorization": f"Bearer {self.token}", **(headers or {})},
                                timeout=TIMEOUT, **kwargs)

    def on(self, device, instance):
        """Points the device's endpoints at one instance, as a load balancer may send it anywhere."""
        for key in ("ServerURL", "CheckInURL"):
            path = "/mdm/" + device.mdm_payload[key].rsplit("/mdm/", 1)[1]
            device.mdm_payload[key] = instance.url(path)
        return device

    def test_a_device_enrolled_through_one_instance_is_served_and_pushed_by_the_other(self):
        uploaded = self.api(self.a, "PUT", "/api/v1/mdm/push-certificate", data=self.pem, headers={"Content-Type": "application/x-pem-file"})
        self.assertEqual(uploaded.status_code, 200, uploaded.text)
        group = self.api(self.b, "POST", "/api/v1/groups", json={"name": f"Cluster kiosks {uuid.uuid4().hex[:6]}"}).json()
        link = self.api(self.b, "POST", "/api/v1/enrollments", json={"group": group["id"]}).json()

        device = MDMDevice()
        device.download_profile(link["profileURL"])
        self.assertEqual(device.get_identity().returncode, 0)
        self.assertEqual(device.authenticate().status_code, 200, "Authenticate on the instance that issued the certificate")
        self.on(device, self.b)
        self.assertEqual(device.token_update().status_code, 200, "TokenUpdate on the other")
        self.assertEqual(len(device.drain()), 4)
        self.on(device, self.a)
        self.assertIsNone(device.report("Idle"))

        found = self.api(self.a, "GET", "/api/v1/devices", params={"q": device.serial}).json()["devices"]
        self.assertEqual([(d["real"], d["enrollment"], d["groupID"]) for d in found], [(True, "enrolled", group["id"])])
        device_id = found[0]["id"]

        # Queued through B, pushed by B with the certificate uploaded through A.
        queued = self.api(self.b, "POST", f"/api/v1/devices/{device_id}/commands", json={"requestType": "RestartDevice"})
        self.assertEqual(queued.status_code, 201, queued.text)
        token = device.push_token.hex()
        pushes = self.push_service.wait_for(lambda pushes: any(p["token"] == token and p["status"] == 200 for p in pushes))
        self.assertEqual([p["problems"] for p in pushes if p["token"] == token], [[]])

        # Woken, the device checks in on both instances at the same moment: one gets the command.
        answers = []
        copies = [self.on(self.copy(device), instance) for instance in (self.a, self.b)]
        barrier = threading.Barrier(2)

        def check_in(copy):
            barrier.wait()
            answers.append(copy.report("Idle"))

        threads = [threading.Thread(target=check_in, args=(copy,)) for copy in copies]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        handed = [answer for answer in answers if answer is not None]
        self.assertEqual(len(handed), 1, answers)
        self.assertEqual(handed[0]["Command"]["RequestType"], "RestartDevice")

    def test_policy_changes_through_both_instances_queue_one_set_and_reach_the_device(self):
        uploaded = self.api(self.b, "PUT", "/api/v1/mdm/push-certificate", data=self.pem, headers={"Content-Type": "application/x-pem-file"})
        self.assertEqual(uploaded.status_code, 200, uploaded.text)
        group = self.api(self.a, "POST", "/api/v1/groups", json={"name": f"Cluster exams {uuid.uuid4().hex[:6]}"}).json()
        device = MDMDevice()
        device.enroll(self.api(self.a, "POST", "/api/v1/enrollments", json={"group": group["id"]}).json()["profileURL"])
        self.on(device, self.b)
        device.drain()
        device_id = self.api(self.a, "GET", "/api/v1/devices", params={"q": device.serial}).json()["devices"][0]["id"]

        allowlist = lambda *apps: [{"PayloadType": "com.apple.applicationaccess", "autonomousSingleAppModePermittedAppIDs": list(apps)}]
        profile = self.api(self.a, "POST", "/api/v1/profiles", json={"name": f"Exam rules {uuid.uuid4().hex[:6]}", "payloads": allowlist("com.example.v1")}).json()
        assigned = self.api(self.b, "POST", f"/api/v1/profiles/{profile['id']}/assignments", json={"groupID": group["id"]})
        self.assertEqual(assigned.status_code, 200, assigned.text)
        for number, instance in ((2, self.a), (3, self.b)):
            current = self.api(instance, "GET", f"/api/v1/profiles/{profile['id']}")
            saved = self.api(instance, "PUT", f"/api/v1/profiles/{profile['id']}", json={"name": profile["name"], "payloads": allowlist(f"com.example.v{number}")},
                             headers={"If-Match": current.headers["ETag"]})
            self.assertEqual(saved.status_code, 200, saved.text)
        self.wait_for_the_sync()
        installs = self.cluster.query(f"SELECT count(*) FROM device_commands WHERE deviceID = {device_id} AND requestType = 'InstallProfile'")
        self.assertEqual(installs[0][0], "1", "both instances heard every change: one install")

        for instance in (self.a, self.b):
            self.on(device, instance)
            device.drain()
        held = [payload["autonomousSingleAppModePermittedAppIDs"] for payload in device.payloads("com.apple.applicationaccess")]
        self.assertEqual(held, [["com.example.v3"]])

        removed = self.api(self.a, "DELETE", f"/api/v1/profiles/{profile['id']}/assignments/{group['id']}")
        self.assertEqual(removed.status_code, 200, removed.text)
        self.wait_for_the_sync()
        self.on(device, self.b)
        device.drain()
        self.assertEqual(device.profiles, {})

    def wait_for_the_sync(self, seconds=20):
        """Until one of the instances has brought every device in line with the latest change."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            behind = self.cluster.query("SELECT (SELECT count(*) FROM mdm_policy_due) + (SELECT count(*) FROM mdm_policy_sync s, policy_generation g "
                                        "WHERE s.generation <> g.value)")
            if behind[0][0] == "0":
                return
            time.sleep(0.1)
        self.fail("no instance brought the devices in line with the policy")

    @staticmethod
    def copy(device):
        twin = MDMDevice(serial=device.serial, udid=device.udid)
        twin.mdm_payload = dict(device.mdm_payload)
        twin.certificate, twin.key = device.certificate, device.key
        return twin


if __name__ == "__main__":
    unittest.main()
