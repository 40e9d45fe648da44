"""An admin restarts every device a search finds, by keyboard: the list's "every device this
filter finds" choice acts on all of them, with nothing ticked, and says how many."""
import unittest
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import BrowserTestCase


class DeviceBulkTest(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("bulk")
        cls.word = f"van{uuid.uuid4().hex[:5]}"
        cls.devices = [cls.api("POST", "/api/v1/devices", {
            "name": f"Field {cls.word} {number}", "model": "iPad", "osVersion": "18.1", "serialNumber": f"DMP{uuid.uuid4().hex[:7].upper()}",
            "udid": f"00008101-{uuid.uuid4().hex[:16].upper()}", "isSupervised": True, "installedApps": []})["id"] for number in range(1, 4)]

    def test_an_admin_restarts_every_device_a_search_finds(self):
        self.signed_in("admin@test.example")
        self.open(f"/devices?q={self.word}")
        every = self.driver.find_element(By.ID, "bulk-scope-filter")
        label = every.find_element(By.XPATH, "..").text
        self.assertIn("Every device this filter finds: 3", label)
        every.send_keys(Keys.SPACE)
        self.assertTrue(every.is_selected())
        self.assert_accessible("device-list-bulk-every-device")
        self.driver.execute_script("window.__leaving = true")
        self.driver.find_element(By.ID, "bulk-command-send").send_keys(Keys.ENTER)
        self.wait_for_new_page()
        self.assertIn("queued for 3 devices", self.driver.find_element(By.CSS_SELECTOR, ".flash-notice").text)
        self.assertIn(f"q={self.word}", self.driver.current_url, "back on the same search")
        for device in self.devices:
            commands = self.api("GET", f"/api/v1/devices/{device}/commands")["commands"]
            self.assertEqual([command["requestType"] for command in commands], ["RestartDevice"])
        for width, height, name in [(1280, 800, "laptop"), (820, 1180, "tablet")]:
            self.driver.set_window_size(width, height)
            self.driver.execute_script("document.getElementById('device-selection').scrollIntoView()")
            self.screenshot(f"device-list-bulk-{name}")


if __name__ == "__main__":
    unittest.main()
