"""What one instance changes, the other answers at once, and what one instance was doing
survives its death — two instances on one PostgreSQL database behind nginx:

- a policy assigned, a device token replaced and a device removed through A are answered by B at
  its next check-in (B holds them in memory; PostgreSQL's LISTEN/NOTIFY tells it);
- a simulator action taken through A reaches an event stream open on B within a second, and a
  policy change through A the event stream of a device page open on B;
- each background job ran once, though both instances started;
- an event stream open through nginx on an instance that gets SIGTERM ends cleanly, and the
  client reconnecting with Last-Event-ID misses nothing that happened meanwhile;
- under a steady mix of check-ins, log uploads and admin saves through nginx, A is killed with
  SIGKILL: every write that got a success answer is stored, B serves on, and A rejoins.
"""

import datetime
import json
import threading
import time
import unittest
import uuid

import requests

import cluster
import support
from cluster import TIMEOUT, eventually, upstream


class SharedStateTest(cluster.ClusterTestCase):

    def call(self, instance, method, path, token=None, **kwargs):
        return requests.request(method, instance.url(path), headers={"Authorization": f"Bearer {token or self.token}"},
                                timeout=TIMEOUT, **kwargs)

    def made(self, instance, path, body):
        answer = self.call(instance, "POST", path, json=body)
        self.assertIn(answer.status_code, (200, 201), support.describe(answer))
        return answer.json()

    def device(self, instance, group=None, apps=()):
        body = {"name": f"Shared iPad {uuid.uuid4().hex[:6]}", "model": "iPad", "osVersion": "18.1",
                "serialNumber": f"DMP{uuid.uuid4().hex[:7].upper()}", "udid": f"00008101-{uuid.uuid4().hex[:16].upper()}",
                "isSupervised": True, "installedApps": list(apps)}
        if group:
            body["groupID"] = group
        device = self.made(instance, "/api/v1/devices", body)
        return device, self.made(instance, f"/api/v1/devices/{device['id']}/token", {})["token"]

    def check_in(self, instance, token, tag=None):
        headers = {"Authorization": f"Bearer {token}"}
        if tag:
            headers["If-None-Match"] = tag
        return requests.get(instance.url("/api/v1/device/policy"), headers=headers, timeout=TIMEOUT)

    def test_what_a_changes_b_answers_at_its_next_check_in(self):
        group = self.made(self.a, "/api/v1/groups", {"name": f"Shared kiosks {uuid.uuid4().hex[:6]}"})["id"]
        device, token = self.device(self.a, group)
        first = self.check_in(self.b, token)
        self.assertEqual(first.status_code, 200)
        tag = first.headers["ETag"]
        self.assertEqual(self.check_in(self.b, token, tag).status_code, 304, "B now answers from memory")

        profile = self.made(self.a, "/api/v1/profiles", {"name": f"Shared {uuid.uuid4().hex[:6]}", "payloads": [
            {"PayloadType": "com.payloadconsole.sdk.logging", "enabled": True, "level": "debug", "wifiOnly": False}]})["id"]
        self.made(self.a, f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        # The announcement reaches B moments after A's commit; a second is the bound.
        self.assertTrue(eventually(lambda: self.check_in(self.b, token, tag).status_code == 200, timeout=1, interval=0.02),
                        "B still answers 304 for the old policy")
        self.assertNotEqual(self.check_in(self.b, token).headers["ETag"], tag)

        replaced = self.made(self.a, f"/api/v1/devices/{device['id']}/token", {})["token"]
        self.assertTrue(eventually(lambda: self.check_in(self.b, token).status_code == 401, timeout=1, interval=0.02),
                        "B still accepts the replaced token")
        self.assertEqual(self.check_in(self.b, replaced).status_code, 200)
        removed = self.call(self.a, "DELETE", f"/api/v1/devices/{device['id']}")
        self.assertIn(removed.status_code, (200, 204), support.describe(removed))
        self.assertTrue(eventually(lambda: self.check_in(self.b, replaced).status_code == 401, timeout=1, interval=0.02),
                        "B still accepts the removed device")

    def test_a_simulator_action_through_a_reaches_a_stream_open_on_b(self):
        device, _ = self.device(self.a)
        udid = device["udid"]
        arrived = []
        opened = threading.Event()

        def listen():
            with requests.get(self.b.url(f"/api/v1/simulator/{udid}/events?timeout=20"), stream=True, timeout=30,
                              headers={"Authorization": f"Bearer {self.token}"}) as stream:
                for line in stream.iter_lines(decode_unicode=True):
                    if line.startswith("retry:"):
                        opened.set()
                    if line == "event: event":
                        arrived.append(time.monotonic())
                        return

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        self.assertTrue(opened.wait(10), "the stream on B opened")
        time.sleep(0.3)
        sent = time.monotonic()
        acted = self.call(self.a, "POST", f"/api/v1/simulator/{udid}/actions", json={"action": "home"})
        self.assertEqual(acted.status_code, 200, support.describe(acted))
        listener.join(timeout=5)
        self.assertTrue(arrived, "the action's event never reached B's stream")
        self.assertLess(arrived[0] - sent, 1.0, "the event reached B within a second")

    def test_a_policy_change_through_a_reaches_a_device_page_open_on_b(self):
        group = self.made(self.a, "/api/v1/groups", {"name": f"Shared page {uuid.uuid4().hex[:6]}"})["id"]
        device, _ = self.device(self.a, group)
        on_b = support.sign_in(self.b, cluster.ADMIN)
        tags, opened = [], threading.Event()

        def listen():
            with on_b.get(self.b.url(f"/devices/{device['id']}/events?timeout=10"), stream=True, timeout=30) as stream:
                for line in stream.iter_lines(decode_unicode=True):
                    if line.startswith("data: "):
                        tags.append((time.monotonic(), line[6:]))
                        opened.set()
                        if tags[-1][1] != tags[0][1]:
                            return

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        self.assertTrue(opened.wait(10), "the device page's stream on B sent the page's policy")
        profile = self.made(self.a, "/api/v1/profiles", {"name": f"Page {uuid.uuid4().hex[:6]}", "payloads": [
            {"PayloadType": "com.payloadconsole.sdk.logging", "enabled": True, "level": "debug", "wifiOnly": False}]})["id"]
        sent = time.monotonic()
        self.made(self.a, f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        listener.join(timeout=5)
        # Other commits (the new profile's version) may wake the page first, with the same tag.
        changed = [at for at, tag in tags if tag != tags[0][1]]
        self.assertTrue(changed, f"the new policy never reached the page's stream on B: {tags}")
        self.assertLess(changed[0] - sent, 1.0, "within a second")

    def test_a_stream_ended_by_sigterm_resumes_on_the_other_instance_without_a_gap(self):
        device, _ = self.device(self.a)
        events = f"/api/v1/simulator/{device['udid']}/events"
        headers = {"Authorization": f"Bearer {self.token}"}
        self.assertEqual(self.call(self.a, "POST", f"/api/v1/simulator/{device['udid']}/actions", json={"action": "home"}).status_code, 200)
        seen, ended = [], threading.Event()
        serving = {}

        def read(stream):
            for line in stream.iter_lines(decode_unicode=True):
                if line.startswith("id: "):
                    seen.append(int(line[4:]))

        def first_stream():
            with requests.get(self.nginx.url(events + "?after=0&timeout=60"), headers=headers, stream=True, timeout=90) as stream:
                serving["address"] = upstream(stream)
                read(stream)  # returns when the instance ends the stream
            ended.set()

        reader = threading.Thread(target=first_stream, daemon=True)
        reader.start()
        self.assertTrue(eventually(lambda: seen and "address" in serving, timeout=10, interval=0.05), "the stream delivered its history")
        stopping = self.cluster.instance_at(serving["address"])
        other = self.b if stopping is self.a else self.a
        stopping.terminate()
        self.assertTrue(ended.wait(cluster.DRAIN_DELAY + 10), "the stream ended when its instance stopped")
        self.assertEqual(stopping.process.wait(timeout=30), 0, "a clean exit")
        last = max(seen)
        # Between the stream's end and the client's return, something happens on the other.
        acted = self.call(other, "POST", f"/api/v1/simulator/{device['udid']}/actions", json={"action": "restart"})
        self.assertEqual(acted.status_code, 200, support.describe(acted))

        # The browser's EventSource reconnects with Last-Event-ID; nginx sends it to the other.
        later = []
        with requests.get(self.nginx.url(events + "?timeout=2"), headers={**headers, "Last-Event-ID": str(last)}, stream=True, timeout=30) as stream:
            self.assertEqual(upstream(stream), other.address)
            for line in stream.iter_lines(decode_unicode=True):
                if line.startswith("id: "):
                    later.append(int(line[4:]))
        stored = [int(row[0]) for row in self.cluster.query(
            f"SELECT e.id FROM simulator_events e JOIN devices d ON d.id = e.deviceID WHERE d.udid = '{device['udid']}' ORDER BY e.id")]
        self.assertEqual(sorted(set(seen) | set(later)), stored, "every event once the client resumed, none missing")
        self.assertTrue(later and min(later) > last, "the resumed stream began after the last event seen")

    def test_each_background_job_ran_once_though_both_instances_started(self):
        rows = dict(self.cluster.query("SELECT job, runs FROM job_leases"))
        self.assertEqual(rows, {"image-sweep": "1", "log-retention": "1", "mdm-inventory": "1", "session-sweep": "1"}, self.cluster.logs())
        holders = {row[0] for row in self.cluster.query("SELECT lastHolder FROM job_leases")}
        self.assertTrue(holders, "a console is named as the one that ran them")

    def test_killing_one_instance_under_load_loses_no_acknowledged_write(self):
        app = f"com.example.fault{uuid.uuid4().hex[:6]}"
        [device_token] = support.devices_that_log(self.nginx, self.token, 1, app)
        stop = threading.Event()
        saved_apps, uploaded, check_ins, failures = [], [], [], []

        def admin_saves():
            while not stop.is_set():
                bundle = f"com.example.saved{uuid.uuid4().hex[:10]}"
                try:
                    answer = requests.post(self.nginx.url("/api/v1/apps"), json={"name": "Saved", "bundleID": bundle},
                                           headers={"Authorization": f"Bearer {self.token}"}, timeout=TIMEOUT)
                except requests.RequestException as error:
                    failures.append(f"save: {error}")
                    continue
                (saved_apps if answer.status_code == 201 else failures).append(bundle if answer.status_code == 201 else answer.status_code)

        def uploads():
            while not stop.is_set():
                marker = f"fault-{uuid.uuid4().hex}"
                now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                line = json.dumps({"app": app, "appVersion": "1.0", "level": "error", "type": "application", "timestamp": now, "message": marker})
                try:
                    answer = requests.post(self.nginx.url("/api/v1/device/logs"), data=line.encode(), timeout=TIMEOUT,
                                           headers={"Authorization": f"Bearer {device_token}", "Content-Type": "application/x-ndjson"})
                except requests.RequestException as error:
                    failures.append(f"upload: {error}")
                    continue
                (uploaded if answer.status_code == 200 else failures).append(marker if answer.status_code == 200 else answer.text[:200])

        def devices_checking_in():
            while not stop.is_set():
                answer = requests.get(self.nginx.url("/api/v1/device/policy"), headers={"Authorization": f"Bearer {device_token}"},
                                      timeout=TIMEOUT)
                check_ins.append((time.monotonic(), answer.status_code))

        workers = [threading.Thread(target=work) for work in (admin_saves, admin_saves, uploads, uploads, devices_checking_in)]
        for worker in workers:
            worker.start()
        try:
            time.sleep(1.5)
            self.a.kill()
            killed = time.monotonic()
            time.sleep(3)
        finally:
            stop.set()
            for worker in workers:
                worker.join()
        self.assertTrue(saved_apps and uploaded, f"work was done: {len(saved_apps)} saves, {len(uploaded)} uploads; {failures[:5]}")

        stored_apps = {row[0] for row in self.cluster.query("SELECT bundleID FROM apps WHERE bundleID LIKE 'com.example.saved%'")}
        self.assertEqual(set(saved_apps) - stored_apps, set(), "every acknowledged save is stored")
        stored_lines = {row[0] for row in self.cluster.query(f"SELECT message FROM device_logs WHERE app = '{app}'", logs=True)}
        self.assertEqual(set(uploaded) - stored_lines, set(), "every acknowledged upload is stored")
        # B serves on: the check-ins of the last second after the kill all succeeded.
        late = [status for at, status in check_ins if at > killed + 2]
        self.assertTrue(late and set(late) == {200}, f"check-ins after the kill: {sorted(set(late))}")
        self.assertEqual(self.cluster.answering(), {self.b.address})

        self.a.start()
        self.assertTrue(eventually(lambda: self.cluster.answering() == {self.a.address, self.b.address}), "A rejoined")


if __name__ == "__main__":
    unittest.main()
