"""A helpdesk call, end to end in Chromium: find the iPad by the serial number the caller reads
out, open it, find the error by its text, open the crash group, download the matching lines,
write a note — and, in a second window, watch requested logs arrive without a reload."""

import gzip
import json
import os
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from harness import SCREENSHOTS, BrowserTestCase, make_driver

CRASH = ("Incident Identifier: 5C1D\nHardware Model: iPad13,1\n"
         "Exception Type: EXC_BAD_ACCESS at 0x10a3f in SyncEngine.swift:88\nThread 0 crashed")


class HelpdeskJourneyTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("helpdesk journey")
        cls.api("POST", "/api/v1/apps", {"name": "Clinic Notes", "bundleID": "com.example.clinicnotes", "isSDKBuilt": True})
        group = cls.api("POST", "/api/v1/groups", {"name": "Ward iPads"})["id"]
        profile = cls.api("POST", "/api/v1/profiles", {"name": "Ward logging", "payloads": [
            {"PayloadType": "com.payloadconsole.sdk.logging", "enabled": True, "level": "information", "wifiOnly": False}]})["id"]
        cls.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        for number in range(1, 4):
            cls.api("POST", "/api/v1/devices", {
                "name": f"Ward iPad {number}", "model": "iPad", "osVersion": "18.1", "serialNumber": f"DMPWARD{number:04d}",
                "udid": f"00008101-{0xAB000 + number:016X}", "isSupervised": True, "groupID": group,
                "installedApps": ["com.example.clinicnotes"]})
        cls.device = cls.api("GET", "/api/v1/devices?limit=10")["devices"][1]["id"]
        cls.device_token = cls.api("POST", f"/api/v1/devices/{cls.device}/token")["token"]
        cls.upload([
            {"app": "com.example.clinicnotes", "appVersion": "2.4", "level": "information", "type": "application",
             "timestamp": "2026-11-23T09:00:00Z", "message": "Opened the ward list"},
            {"app": "com.example.clinicnotes", "appVersion": "2.4", "level": "error", "type": "application",
             "timestamp": "2026-11-23T09:01:00Z", "message": "Sync failed: E_TIMEOUT contacting api.example.com"},
            {"app": "com.example.clinicnotes", "appVersion": "2.4", "level": "error", "type": "crash",
             "timestamp": "2026-11-23T09:02:00Z", "message": CRASH},
        ])

    @classmethod
    def device_call(cls, method, path, body=None, content_type="application/json", encoding=None):
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {cls.device_token}", "Content-Type": content_type}
        if encoding:
            headers["Content-Encoding"] = encoding
        request = urllib.request.Request(cls.server.base + path, method=method, data=data, headers=headers)
        with urllib.request.urlopen(request) as response:
            text = response.read()
            return json.loads(text) if text else None

    @classmethod
    def upload(cls, lines):
        body = gzip.compress("\n".join(json.dumps(line) for line in lines).encode())
        cls.device_call("POST", "/api/v1/device/logs", body, content_type="application/x-ndjson", encoding="gzip")

    def test_a_helpdesk_call_from_serial_number_to_note(self):
        self.signed_in("helpdesk@test.example")
        self.open("/devices")
        box = self.driver.find_element(By.ID, "device-search")
        box.send_keys("dmpward0002")  # read out over the phone, typed in lower case
        self.click_and_wait(By.ID, "filter-devices")
        self.assertEqual([a.text for a in self.driver.find_elements(By.CSS_SELECTOR, "#device-table th[scope=row] a")], ["Ward iPad 2"])
        self.screenshot("helpdesk-1-found-by-serial")
        self.click_and_wait(By.LINK_TEXT, "Ward iPad 2")
        self.assertEqual(self.heading(), "Ward iPad 2")
        self.assertIn("Sync failed", self.driver.find_element(By.ID, "recent-log-rows").text)

        # Every line of the device, searched by the error's code.
        self.click_and_wait(By.LINK_TEXT, "Search every line of this device")
        self.driver.find_element(By.ID, "log-search").send_keys("E_TIMEOUT")
        self.click_and_wait(By.ID, "filter-logs")
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#log-rows tr")
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0].find_element(By.TAG_NAME, "mark").text, "E_TIMEOUT")
        self.screenshot("helpdesk-2-error-found")

        # The matching lines, downloaded as the link gives them to this browser.
        href = self.driver.find_element(By.ID, "download-matching").get_attribute("href")
        downloaded = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.text()).then(done);", href)
        lines = [json.loads(line) for line in downloaded.splitlines()]
        self.assertEqual([line["message"] for line in lines], ["Sync failed: E_TIMEOUT contacting api.example.com"])

        # The crash, grouped.
        self.click_and_wait(By.ID, "crash-groups-link")
        self.driver.find_element(By.ID, "crash-app").send_keys("Clinic Notes")
        group = self.driver.find_element(By.CSS_SELECTOR, "a.crash-signature")
        self.assertIn("EXC_BAD_ACCESS at 0x… in SyncEngine.swift:88", group.text)
        self.screenshot("helpdesk-3-crash-groups")
        self.click_and_wait(By.CSS_SELECTOR, "a.crash-signature")
        self.driver.find_element(By.CSS_SELECTOR, "#log-rows details summary").click()
        self.assertIn("Thread 0 crashed", self.driver.find_element(By.CSS_SELECTOR, "#log-rows pre.log-full").text)

        # A note for whoever takes the next call.
        self.open(f"/devices/{self.device}")
        self.driver.find_element(By.ID, "note-body").send_keys("Caller: ward sister. **Sync times out** since 09:00; crash in `SyncEngine`.")
        self.click_and_wait(By.ID, "add-note")
        note = self.driver.find_element(By.CSS_SELECTOR, "#notes .note .markdown")
        self.assertEqual(note.find_element(By.TAG_NAME, "strong").text, "Sync times out")
        self.screenshot("helpdesk-4-note")

    def test_requested_logs_arrive_in_a_second_window_without_a_reload(self):
        self.signed_in("helpdesk@test.example")
        self.open(f"/devices/{self.device}")
        watcher = make_driver()
        try:
            watcher.get(self.server.base + "/healthz")
            watcher.add_cookie({"name": "pc_session", "value": self.server.session_for("admin@test.example"), "path": "/", "httpOnly": True})
            watcher.get(f"{self.server.base}/devices/{self.device}")
            before = len(watcher.find_elements(By.CSS_SELECTOR, "#recent-log-rows tr"))

            self.driver.find_element(By.ID, "request-logs-capture").send_keys("every level for 15 minutes")
            self.click_and_wait(By.ID, "request-logs")
            self.assertIn("Queued", self.driver.find_element(By.CSS_SELECTOR, ".flash").text)

            # The device checks in: it takes the command, acknowledges it, and sends what it captured.
            command = self.device_call("GET", "/api/v1/device/commands")["commands"][0]
            self.assertEqual(command["Command"]["RequestType"], "RequestLogs")
            self.device_call("POST", f"/api/v1/device/commands/{command['CommandUUID']}", {"Status": "Acknowledged"})
            self.upload([{"app": "com.example.clinicnotes", "appVersion": "2.4", "level": "debug", "type": "application",
                          "timestamp": "2026-11-23T09:05:00Z", "message": "Captured: retrying sync with backoff 4 s"}])

            WebDriverWait(watcher, 20).until(
                lambda d: "Captured: retrying sync" in d.find_element(By.ID, "recent-log-rows").text)
            self.assertEqual(len(watcher.find_elements(By.CSS_SELECTOR, "#recent-log-rows tr")), before + 1)
            self.assertIn("1 new line arrived", watcher.find_element(By.ID, "live-status").text)
            # The command queued in the other window shows here too, with its progress.
            selector = f"tr[data-command='{command['CommandUUID']}'] [data-status]"
            WebDriverWait(watcher, 10).until(
                lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, selector)] == ["Acknowledged"])
            watcher.save_screenshot(os.path.join(SCREENSHOTS, "helpdesk-5-logs-arrived.png"))
        finally:
            watcher.quit()
