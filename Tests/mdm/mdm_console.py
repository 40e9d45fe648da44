"""A console ready for real devices: a push certificate uploaded, a group, an admin's API
client, and enrollment links on demand. On SQLite, or on PostgreSQL with `postgres=True`."""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid

import requests

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "robustness"))
import support  # noqa: E402  (needs the path above)

TIMEOUT = support.TIMEOUT


def push_certificate(topic=None, folder=None):
    """A certificate and key shaped as Apple's Push Certificates Portal issues them (the
    subject's UID is the topic), self-signed: the console checks the shape, Apple the issuer.
    Answers the topic, the PEM file's bytes, and the certificate's path."""
    topic = topic or f"com.apple.mgmt.External.{uuid.uuid4()}"
    folder = folder or tempfile.mkdtemp(prefix="push-")
    key, certificate = os.path.join(folder, "push.key"), os.path.join(folder, "push.crt")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "365",
                    "-subj", f"/UID={topic}/CN=APSP:{uuid.uuid4()}/C=US"], check=True, capture_output=True)
    with open(certificate, "rb") as certificate_file, open(key, "rb") as key_file:
        return topic, certificate_file.read() + key_file.read(), certificate


class PushStandIn:
    """apns_standin.py in its own process, trusting only the push certificate as a client."""

    def __init__(self, topic, push_certificate_path):
        self.folder = tempfile.mkdtemp(prefix="apns-")
        self.port = support.harness.free_port()
        self.url = f"https://127.0.0.1:{self.port}"
        self.certificate, key = os.path.join(self.folder, "server.crt"), os.path.join(self.folder, "server.key")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", self.certificate, "-days", "30",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
        self.log, self.script = os.path.join(self.folder, "received.jsonl"), os.path.join(self.folder, "script.json")
        self.behave({})
        self.output = open(os.path.join(self.folder, "standin.log"), "w")
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(os.path.dirname(__file__), "apns_standin.py"), "--port", str(self.port), "--cert", self.certificate,
             "--key", key, "--client-ca", push_certificate_path, "--topic", topic, "--log", self.log, "--script", self.script],
            stdout=self.output, stderr=subprocess.STDOUT)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the push stand-in did not start: " + open(self.output.name).read())

    def behave(self, script):
        """How the stand-in answers each token (hex): unregistered, bad-token, busy-N, or deliver."""
        with open(self.script, "w") as file:
            json.dump(script, file)

    def received(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as log:
            return [json.loads(line) for line in log if line.strip()]

    def wait_for(self, condition, seconds=15):
        deadline = time.time() + seconds
        while time.time() < deadline:
            pushes = self.received()
            if condition(pushes):
                return pushes
            time.sleep(0.1)
        raise AssertionError(f"the stand-in did not receive what was expected; it has {self.received()}\n{open(self.output.name).read()}")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.output.close()


class MDMConsole(support.Console):
    def __init__(self, postgres=False):
        super().__init__(postgres=postgres)

    def start_ready(self):
        self.topic, pem, certificate = push_certificate(folder=self.folder)
        self.push_service = PushStandIn(self.topic, certificate)
        self.extra_arguments = ["--apns-url", self.push_service.url, "--apns-ca", self.push_service.certificate]
        self.with_users()
        self.start()
        self.admin_api = support.api_client(self.create_token("admin", "mdm"))
        self.helpdesk_api = support.api_client(self.create_token("helpdesk", "mdm-helpdesk"))
        answer = self.admin_api.put(self.url("/api/v1/mdm/push-certificate"), data=pem,
                                    headers={"Content-Type": "application/x-pem-file"}, timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text
        self.group = self.admin_api.post(self.url("/api/v1/groups"), json={"name": f"Kiosks {uuid.uuid4().hex[:6]}"}, timeout=TIMEOUT).json()
        return self

    def stop(self):
        super().stop()
        self.push_service.stop()

    def enrollment(self, group=None, hours=24):
        answer = self.admin_api.post(self.url("/api/v1/enrollments"), json={"group": group or self.group["id"], "expiresInHours": hours},
                                     timeout=TIMEOUT)
        assert answer.status_code == 201, answer.text
        return answer.json()

    def list_devices(self, **filters):
        answer = self.admin_api.get(self.url("/api/v1/devices"), params=filters, timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text
        return answer.json()["devices"]

    def device(self, serial):
        answer = self.admin_api.get(self.url("/api/v1/devices"), params={"q": serial}, timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text
        found = answer.json()["devices"]
        return found[0] if found else None

    def commands(self, device_id):
        answer = self.helpdesk_api.get(self.url(f"/api/v1/devices/{device_id}/commands"), timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text
        return answer.json()["commands"]

    def queue(self, device_id, request_type, api=None, **keys):
        return (api or self.helpdesk_api).post(self.url(f"/api/v1/devices/{device_id}/commands"),
                                                json={"requestType": request_type, **keys}, timeout=TIMEOUT)

    def execute(self, sql):
        """Changes the database behind the console's back: how a test moves a link past its time."""
        if self.schema:
            self.pg_query(sql)
            return
        import sqlite3
        with sqlite3.connect(self.database, timeout=10) as connection:
            connection.execute(sql)

    def rows(self, sql):
        """Rows of a query on the console's database, whichever backend it is on."""
        if self.schema:
            return [tuple(row) for row in self.pg_query(sql)]
        return [tuple(str(value) if value is not None else "" for value in row) for row in support.query(self.database, sql)]

    def policy_settled(self):
        """Whether the console has brought every device in line with the latest policy change
        and taken every due mark (a device's answer that changed its apps marks it due)."""
        caught_up = self.rows("SELECT count(*) FROM mdm_policy_sync s, policy_generation g WHERE s.generation = g.value")
        due = self.rows("SELECT count(*) FROM mdm_policy_due")
        return str(caught_up[0][0]) == "1" and str(due[0][0]) == "0"

    def wait_for_the_sync(self, seconds=20):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.policy_settled():
                return
            time.sleep(0.1)
        raise AssertionError("the console did not bring devices in line with the policy")


class ConsoleTests:
    """A console with a push certificate for a test class, on SQLite, or on PostgreSQL when the
    subclass sets `postgres`: mixed into a unittest.TestCase, one subclass per backend."""

    postgres = False

    @classmethod
    def setUpClass(cls):
        cls.console = MDMConsole(postgres=cls.postgres).start_ready()

    @classmethod
    def tearDownClass(cls):
        cls.console.stop()
