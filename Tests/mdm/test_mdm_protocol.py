"""A device enrolls and is managed over Apple's MDM protocol, end to end against the console
binary: the enrollment link and its signed profile, SCEP with Debian's scepclient, signed
check-ins, the inventory commands, commands queued through the API with every answer a device
gives (Acknowledged, NotNow, Error, CommandFormatError), enrolling again, and CheckOut. Runs on
SQLite, and again on PostgreSQL when make test provides one."""

import os
import plistlib
import time
import unittest

from cryptography.hazmat.primitives import hashes

import mdm_console
from mdm_console import TIMEOUT
from mdm_device import MDMDevice

INVENTORY = {"DeviceInformation", "SecurityInfo", "InstalledApplicationList", "ProfileList"}


class ProtocolTests(mdm_console.ConsoleTests):
    """The tests, run by a subclass per backend."""

    def enrolled(self, **device_options):
        device = MDMDevice(**device_options)
        device.enroll(self.console.enrollment()["profileURL"])
        return device

    def test_a_device_enrolls_reports_its_inventory_and_joins_the_group(self):
        link = self.console.enrollment()
        device = MDMDevice(name="Lobby kiosk")
        profile = device.download_profile(link["profileURL"])
        self.assertEqual(device.mdm_payload["Topic"], self.console.topic)
        self.assertTrue(device.mdm_payload["SignMessage"])
        self.assertTrue(device.mdm_payload["CheckOutWhenRemoved"])
        self.assertEqual(device.mdm_payload["AccessRights"], 8191)
        self.assertEqual(device.mdm_payload["IdentityCertificateUUID"], device.scep_payload["PayloadUUID"])
        self.assertTrue(device.mdm_payload["ServerURL"].startswith(self.console.base + "/mdm/"))
        self.assertEqual(profile["PayloadType"], "Configuration")

        result = device.get_identity()
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(device.authenticate().status_code, 200)
        self.assertEqual(device.token_update().status_code, 200)

        ran = device.drain()
        self.assertEqual(set(ran), INVENTORY, "the four inventory commands, each once")
        self.assertEqual(len(ran), 4)
        listed = self.console.device(device.serial)
        self.assertIsNotNone(listed, "the device is found by its serial number")
        self.assertTrue(listed["real"])
        self.assertEqual(listed["enrollment"], "enrolled")
        self.assertEqual(listed["groupID"], self.console.group["id"])
        self.assertEqual(listed["name"], "Lobby kiosk", "the name DeviceInformation reported")
        self.assertTrue(listed["isSupervised"])
        self.assertEqual(listed["installedApps"], ["com.example.kiosk"])
        self.assertEqual(self.console.device(device.udid)["id"], listed["id"], "and by its UDID")
        statuses = {command["requestType"]: command["status"] for command in self.console.commands(listed["id"])}
        self.assertEqual(statuses, {kind: "acknowledged" for kind in INVENTORY})

        # The link enrolled one device: its profile and its challenge are spent.
        self.assertEqual(mdm_console.support.requests.get(link["profileURL"], timeout=TIMEOUT).status_code, 410)

    def test_commands_queued_through_the_api_reach_the_device_in_apples_shapes(self):
        device = self.enrolled()
        device.drain()
        device_id = self.console.device(device.serial)["id"]
        lock = self.console.queue(device_id, "DeviceLock", message="Return to the front desk", phoneNumber="+44 20 7946 0000")
        self.assertEqual(lock.status_code, 201, lock.text)
        self.assertEqual(self.console.queue(device_id, "RestartDevice").status_code, 201)

        first = device.report("Idle")
        self.assertEqual(first["Command"], {"RequestType": "DeviceLock", "Message": "Return to the front desk", "PhoneNumber": "+44 20 7946 0000"})
        # Locked: the device cannot restart now. NotNow keeps the command; the next command comes.
        second = device.report("Acknowledged", first["CommandUUID"])
        self.assertEqual(second["Command"]["RequestType"], "RestartDevice")
        self.assertIsNone(device.report("NotNow", second["CommandUUID"]), "a command put off is not offered again in the same run")
        again = device.report("Idle")
        self.assertEqual(again["CommandUUID"], second["CommandUUID"], "offered again at the next check-in that is not NotNow")
        self.assertIsNone(device.report("Acknowledged", again["CommandUUID"]))

        commands = {command["uuid"]: command for command in self.console.commands(device_id)}
        self.assertEqual(commands[first["CommandUUID"]]["status"], "acknowledged")
        restart = commands[second["CommandUUID"]]
        self.assertEqual(restart["status"], "acknowledged")
        self.assertEqual(restart["notNowCount"], 1)
        self.assertIsNotNone(restart["firstNotNowAt"])

    def test_an_error_and_an_unreadable_command_are_shown_in_words(self):
        device = self.enrolled()
        device.drain()
        device_id = self.console.device(device.serial)["id"]
        for kind, keys in (("EnableLostMode", {"message": "Lost iPad", "footnote": "Lab 4"}), ("DeviceLocation", {})):
            queued = self.console.queue(device_id, kind, api=self.console.admin_api, **keys)
            self.assertEqual(queued.status_code, 201, queued.text)
        lost = device.report("Idle")
        self.assertEqual(lost["Command"]["RequestType"], "EnableLostMode")
        location = device.report("Error", lost["CommandUUID"], {"ErrorChain": [{
            "ErrorCode": 12078, "ErrorDomain": "MCMDMErrorDomain",
            "LocalizedDescription": "Lost mode requires a supervised device", "USEnglishDescription": "Lost mode requires a supervised device"}]})
        self.assertEqual(location["Command"]["RequestType"], "DeviceLocation")
        self.assertIsNone(device.report("CommandFormatError", location["CommandUUID"]))
        commands = {command["uuid"]: command for command in self.console.commands(device_id)}
        self.assertEqual(commands[lost["CommandUUID"]]["status"], "error")
        self.assertIn("Lost mode requires a supervised device", commands[lost["CommandUUID"]]["answer"])
        self.assertEqual(commands[location["CommandUUID"]]["status"], "formatError")
        self.assertIn("could not read", commands[location["CommandUUID"]]["answer"])

    def test_managed_app_feedback_fetched_over_mdm_fills_the_feedback_history(self):
        self.console.admin_api.post(self.console.url("/api/v1/apps"), json={"name": "Kiosk", "bundleID": "com.example.kiosk", "isManaged": True},
                                    timeout=TIMEOUT)
        device = self.enrolled()
        device.drain()
        device_id = self.console.device(device.serial)["id"]
        queued = self.console.queue(device_id, "ManagedApplicationFeedback", apps=["com.example.kiosk"], deleteFeedback=True)
        self.assertEqual(queued.status_code, 201, queued.text)
        command = device.report("Idle")
        self.assertEqual(command["Command"], {"RequestType": "ManagedApplicationFeedback", "Identifiers": ["com.example.kiosk"],
                                              "DeleteFeedback": True})
        self.assertIsNone(device.answer(command))
        self.assertEqual(device.feedback, {}, "the device deleted what it reported")
        history = self.console.helpdesk_api.get(self.console.url(f"/api/v1/devices/{device_id}/feedback"), params={"app": "com.example.kiosk"},
                                                timeout=TIMEOUT)
        self.assertEqual(history.status_code, 200, history.text)
        self.assertIn("printer offline", history.text)
        self.assertIn("sessionsToday", history.text)

    def test_a_device_that_enrolls_again_keeps_its_record(self):
        device = self.enrolled(name="Ward 3 iPad")
        device.drain()
        before = self.console.device(device.serial)
        # Erased and enrolled again: a new UDID and identity, the same serial number.
        again = MDMDevice(serial=device.serial, name="Ward 3 iPad", digest=hashes.SHA1())
        again.enroll(self.console.enrollment()["profileURL"])
        again.drain()
        after = self.console.device(device.serial)
        self.assertEqual(after["id"], before["id"])
        self.assertEqual(after["udid"], again.udid)
        self.assertEqual(after["enrollment"], "enrolled")
        # The old identity was revoked when the new one authenticated.
        self.assertEqual(device.report_status("Idle"), 403)

    def test_check_out_unenrolls_and_keeps_the_record(self):
        device = self.enrolled()
        device.drain()
        device_id = self.console.device(device.serial)["id"]
        self.assertEqual(device.check_out().status_code, 200)
        listed = self.console.device(device.serial)
        self.assertEqual(listed["id"], device_id)
        self.assertEqual(listed["enrollment"], "unenrolled")
        self.assertEqual(len(self.console.commands(device_id)), 4, "its history stays")
        self.assertEqual(self.console.queue(device_id, "RestartDevice").status_code, 409)
        self.assertEqual(device.report_status("Idle"), 403, "its certificate was revoked")

    def test_a_queued_command_wakes_the_device_through_the_push_service(self):
        device = self.enrolled()
        device.drain()
        device_id = self.console.device(device.serial)["id"]
        self.assertEqual(self.console.queue(device_id, "RestartDevice").status_code, 201)
        token = device.push_token.hex()
        pushes = self.console.push_service.wait_for(lambda pushes: any(push["token"] == token for push in pushes))
        push = [push for push in pushes if push["token"] == token][-1]
        self.assertEqual(push["problems"], [], "HTTP/2, POST /3/device/<token>, apns-topic and the body as Apple wants them")
        self.assertEqual(push["status"], 200)
        self.assertEqual(push["pushMagic"], device.push_magic)
        self.assertEqual(push["topic"], self.console.topic)
        self.assertEqual(device.drain(), ["RestartDevice"], "woken, the device checks in and takes the command")

    def test_a_busy_push_service_is_tried_again_and_a_dead_token_is_marked(self):
        busy, dead = self.enrolled(), self.enrolled()
        busy.drain()
        dead.drain()
        self.console.push_service.behave({busy.push_token.hex(): "busy-2", dead.push_token.hex(): "unregistered"})
        ids = [self.console.device(device.serial)["id"] for device in (busy, dead)]
        for device_id in ids:
            self.assertEqual(self.console.queue(device_id, "RestartDevice").status_code, 201)
        pushes = self.console.push_service.wait_for(
            lambda pushes: any(p["token"] == busy.push_token.hex() and p["status"] == 200 for p in pushes)
            and any(p["token"] == dead.push_token.hex() for p in pushes))
        self.assertEqual([p["status"] for p in pushes if p["token"] == busy.push_token.hex()], [429, 429, 200])
        self.wait_until(lambda: [d["id"] for d in self.console.list_devices(kind="pushDead")] == [ids[1]])
        # A dead token is not pushed to again; a new token from the device brings it back.
        self.assertEqual(self.console.queue(ids[1], "RestartDevice").status_code, 201)
        time.sleep(1)
        self.assertEqual(len([p for p in self.console.push_service.received() if p["token"] == dead.push_token.hex()]), 1)
        dead.push_token = os.urandom(32)
        self.assertEqual(dead.token_update().status_code, 200)
        self.assertEqual(self.console.list_devices(kind="pushDead"), [])

    def wait_until(self, condition, seconds=15):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if condition():
                return
            time.sleep(0.1)
        self.fail("the condition did not come true")

    def test_messages_the_console_does_not_serve_get_a_deliberate_answer(self):
        device = self.enrolled()
        user = device.check_in({"MessageType": "UserAuthenticate", "UDID": device.udid, "UserID": "u", "DigestResponse": ""})
        self.assertEqual(user.status_code, 410)
        declarative = device.check_in({"MessageType": "DeclarativeManagement", "UDID": device.udid, "Endpoint": "tokens"})
        self.assertEqual(declarative.status_code, 400)
        self.assertIn("not supported yet", declarative.text)
        self.assertTrue(declarative.headers["Content-Type"].startswith("text/plain"))


class SQLiteProtocolTests(ProtocolTests, unittest.TestCase):
    pass


@unittest.skipUnless(mdm_console.support.POSTGRES or mdm_console.support.POSTGRES_REQUIRED, "no PostgreSQL server (make test provides one)")
class PostgresProtocolTests(ProtocolTests, unittest.TestCase):
    postgres = True


if __name__ == "__main__":
    unittest.main()
