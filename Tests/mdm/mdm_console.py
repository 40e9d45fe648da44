"""A console ready for real devices: a push certificate uploaded, a group, an admin's API
client, and enrollment links on demand. On SQLite, or on PostgreSQL with `postgres=True`."""

import os
import subprocess
import sys
import tempfile
import uuid

import requests

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "robustness"))
import support  # noqa: E402  (needs the path above)

TIMEOUT = support.TIMEOUT


def push_certificate(topic=None):
    """A certificate and key shaped as Apple's Push Certificates Portal issues them (the
    subject's UID is the topic), self-signed: the console checks the shape, Apple the issuer."""
    topic = topic or f"com.apple.mgmt.External.{uuid.uuid4()}"
    folder = tempfile.mkdtemp(prefix="push-")
    key, certificate = os.path.join(folder, "push.key"), os.path.join(folder, "push.crt")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "365",
                    "-subj", f"/UID={topic}/CN=APSP:{uuid.uuid4()}/C=US"], check=True, capture_output=True)
    return topic, open(certificate, "rb").read() + open(key, "rb").read()


class MDMConsole(support.Console):
    def __init__(self, postgres=False):
        super().__init__(postgres=postgres)

    def start_ready(self):
        self.with_users()
        self.start()
        self.admin_api = support.api_client(self.create_token("admin", "mdm"))
        self.helpdesk_api = support.api_client(self.create_token("helpdesk", "mdm-helpdesk"))
        self.topic, pem = push_certificate()
        answer = self.admin_api.put(self.url("/api/v1/mdm/push-certificate"), data=pem,
                                    headers={"Content-Type": "application/x-pem-file"}, timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text
        self.group = self.admin_api.post(self.url("/api/v1/groups"), json={"name": f"Kiosks {uuid.uuid4().hex[:6]}"}, timeout=TIMEOUT).json()
        return self

    def enrollment(self, group=None, hours=24):
        answer = self.admin_api.post(self.url("/api/v1/enrollments"), json={"group": group or self.group["id"], "expiresInHours": hours},
                                     timeout=TIMEOUT)
        assert answer.status_code == 201, answer.text
        return answer.json()

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
