"""What an attacker, a broken client or another device sends to the MDM endpoints: each is
refused with the status the protocol expects, in plain text, with nothing in the database
changed, and the refusal of an identity is logged for the admin."""

import os
import plistlib
import subprocess
import time
import unittest

from cryptography import x509
from cryptography.hazmat.primitives import serialization

import mdm_console
from mdm_console import TIMEOUT, support
from mdm_device import MDMDevice


class HostileMDMTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.console = mdm_console.MDMConsole().start_ready()
        cls.device = MDMDevice()
        cls.device.enroll(cls.console.enrollment()["profileURL"])
        cls.device.drain()
        cls.other = MDMDevice()
        cls.other.enroll(cls.console.enrollment()["profileURL"])
        cls.other.drain()

    @classmethod
    def tearDownClass(cls):
        cls.console.stop()

    def refused(self, answer, status):
        """The refusal, and the database as it was before it."""
        self.assertEqual(answer.status_code, status, answer.text)
        self.assertTrue(answer.headers.get("Content-Type", "").startswith("text/plain"), answer.headers)
        self.assertNotIn("<html", answer.text.lower())
        return answer

    def unchanged(self, send):
        # The console's own background work (a device's answer marked it due; the sync takes
        # the mark a moment later) is not the hostile message's doing: let it finish first.
        self.console.wait_for_the_sync()
        before = support.digest(self.console.database)
        answer = send()
        self.assertEqual(support.changed_tables(before, support.digest(self.console.database)), [])
        return answer

    def logged(self, words):
        deadline = time.time() + 5
        while time.time() < deadline:
            if words in open(os.path.join(self.console.folder, "server.log")).read():
                return
            time.sleep(0.1)
        self.fail(f"the log does not mention {words!r}")

    def test_an_unsigned_message_is_refused(self):
        answer = self.unchanged(lambda: self.device.token_update(signature=None))
        self.refused(answer, 401)
        self.assertIn("not signed", answer.text)
        self.logged("MDM request refused")

    def test_a_signature_over_another_body_is_refused(self):
        other_body = plistlib.dumps({"Status": "Idle", "UDID": self.device.udid, "Padding": "x"}, fmt=plistlib.FMT_XML)
        signature = self.device.signature(other_body)
        self.refused(self.unchanged(lambda: self.device.report_status_answer("Idle", signature=signature)), 401)
        self.refused(self.unchanged(lambda: self.device.report_status_answer("Idle", signature="not base64!")), 401)
        self.refused(self.unchanged(lambda: self.device.report_status_answer("Idle", signature="aGVsbG8=")), 401)

    def test_a_certificate_the_console_did_not_issue_is_refused(self):
        folder = self.device.folder
        key, certificate = os.path.join(folder, "forged.key"), os.path.join(folder, "forged.crt")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "30",
                        "-subj", "/CN=Payload Console device"], check=True, capture_output=True)
        forged = x509.load_pem_x509_certificate(open(certificate, "rb").read())
        forged_key = serialization.load_pem_private_key(open(key, "rb").read(), password=None)
        body = plistlib.dumps({"Status": "Idle", "UDID": self.device.udid}, fmt=plistlib.FMT_XML)
        signature = self.device.signature(body, certificate=forged, key=forged_key)
        answer = self.unchanged(lambda: self.device.send(self.device.mdm_payload["ServerURL"], None, signature=signature, body=body))
        self.refused(answer, 401)
        self.assertIn("did not issue", answer.text)

    def test_no_device_may_speak_for_another(self):
        # The other device's own, valid identity, naming this device's UDID.
        impostor = MDMDevice(udid=self.device.udid, serial=self.device.serial)
        impostor.mdm_payload, impostor.certificate, impostor.key = self.other.mdm_payload, self.other.certificate, self.other.key
        self.refused(self.unchanged(impostor.token_update), 403)
        self.refused(self.unchanged(impostor.check_out), 403)
        self.refused(self.unchanged(lambda: impostor.report_status_answer("Idle")), 403)
        self.refused(self.unchanged(impostor.authenticate), 403)
        self.logged("another device")

    def test_a_report_on_a_command_not_sent_to_this_device_is_refused(self):
        device_id = self.console.device(self.other.serial)["id"]
        self.assertEqual(self.console.queue(device_id, "RestartDevice").status_code, 201)
        sent = self.other.report("Idle")
        # This device reports on the other's command: replayed, or guessed.
        answer = self.unchanged(lambda: self.device.report_status_answer("Acknowledged", command_uuid=sent["CommandUUID"]))
        self.refused(answer, 403)
        self.other.report("Acknowledged", sent["CommandUUID"])
        # The same report again, once the command is finished.
        replay = self.unchanged(lambda: self.other.report_status_answer("Acknowledged", command_uuid=sent["CommandUUID"]))
        self.refused(replay, 403)

    def test_bodies_that_are_not_a_small_xml_plist_are_refused(self):
        binary = plistlib.dumps({"Status": "Idle", "UDID": self.device.udid}, fmt=plistlib.FMT_BINARY)
        answer = self.unchanged(lambda: self.device.send(self.device.mdm_payload["ServerURL"], None, body=binary))
        self.assertIn("binary", self.refused(answer, 400).text)
        entities = (b'<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
                    b'<plist version="1.0"><dict><key>Status</key><string>&b;&b;&b;</string></dict></plist>')
        self.refused(self.unchanged(lambda: self.device.send(self.device.mdm_payload["ServerURL"], None, body=entities)), 400)
        wrong_type = plistlib.dumps({"Status": 7, "UDID": self.device.udid}, fmt=plistlib.FMT_XML)
        self.refused(self.unchanged(lambda: self.device.send(self.device.mdm_payload["ServerURL"], None, body=wrong_type)), 400)
        no_token = {"MessageType": "TokenUpdate", "Topic": self.console.topic, "UDID": self.device.udid, "PushMagic": "x", "Token": "text"}
        self.refused(self.unchanged(lambda: self.device.check_in(no_token)), 400)
        huge = b"<plist>" + b" " * (5 << 20) + b"</plist>"
        self.assertEqual(self.unchanged(lambda: self.device.send(self.device.mdm_payload["ServerURL"], None, body=huge, signature="x")).status_code, 413)

    def test_an_unknown_address_under_mdm_is_a_plain_404(self):
        self.refused(support.requests.get(self.console.url("/mdm/nothing-here"), timeout=TIMEOUT), 404)
        self.refused(support.requests.get(self.console.url("/mdm/enroll/not-a-token/profile"), timeout=TIMEOUT), 404)

    def test_scep_refuses_a_wrong_used_or_expired_challenge_and_issues_nothing(self):
        count = lambda: int(self.console.rows("SELECT COUNT(*) FROM mdm_certificates")[0][0])
        issued = count()
        wrong = MDMDevice()
        wrong.download_profile(self.console.enrollment()["profileURL"])
        result = wrong.get_identity(challenge="0" * 32)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("badRequest", result.stdout + result.stderr)
        self.logged("SCEP request refused")
        # The link whose profile this device holds is used by another device first.
        used = MDMDevice()
        link = self.console.enrollment()["profileURL"]
        used.download_profile(link)
        first = MDMDevice()
        first.download_profile(link)
        self.assertEqual(first.get_identity().returncode, 0)
        self.assertNotEqual(used.get_identity().returncode, 0)
        self.assertEqual(count(), issued + 1, "one certificate, for the first device")
        # A link the admin revoked after it was handed out: its page says it was withdrawn, and its
        # challenge issues nothing.
        late = MDMDevice()
        link = self.console.enrollment()
        late.download_profile(link["profileURL"])
        revoked = self.console.admin_api.delete(self.console.url(f"/api/v1/enrollments/{link['id']}"), timeout=TIMEOUT)
        self.assertEqual(revoked.status_code, 200, revoked.text)
        self.assertEqual(revoked.json()["state"], "revoked")
        self.assertNotEqual(late.get_identity().returncode, 0)
        self.assertEqual(count(), issued + 1)
        self.assertEqual(support.requests.get(link["profileURL"], timeout=TIMEOUT).status_code, 410)
        page = support.requests.get(link["url"], timeout=TIMEOUT)
        self.assertEqual(page.status_code, 410)
        self.assertIn("withdrawn by your admin", page.text)


if __name__ == "__main__":
    unittest.main()
