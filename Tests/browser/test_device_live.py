"""The device page while it is open: a change made elsewhere reaches it through its event
stream — a profile assigned to the device's group makes the page say the policy changed, and a
command answered shows its new state — without a reload and without waiting for the page's
next four-second look."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from harness import BrowserTestCase


class DeviceLiveTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("browser tests")
        cls.api("POST", "/api/v1/apps", {"name": "Check-in", "bundleID": "com.example.checkin", "isSDKBuilt": True})

    def wait_for(self, condition, timeout=5):
        WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda driver: condition())

    def test_a_policy_change_elsewhere_is_announced_on_the_open_device_page(self):
        group, device = self.device_in_new_group("Lobby iPad", "com.example.checkin", group="Lobby")
        self.signed_in("helpdesk@test.example")
        self.open(f"/devices/{device}")
        notice = self.driver.find_element(By.ID, "policy-changed")
        self.assertFalse(notice.is_displayed())
        # The stream's first message (the page's own policy) has arrived before the change.
        self.wait_for(lambda: self.driver.find_element(By.ID, "recent-logs").get_attribute("data-policy-tag"))

        profile = self.api("POST", "/api/v1/profiles", {"name": "Lobby lock", "payloads": [
            {"PayloadType": "com.apple.app.lock", "App": {"Identifier": "com.example.checkin"}}]})
        self.api("POST", f"/api/v1/profiles/{profile['id']}/assignments", {"groupID": group})
        assigned = time.monotonic()
        # Well inside the page's four-second look: the stream brought it.
        self.wait_for(lambda: notice.is_displayed(), timeout=3)
        print(f"\npolicy change announced on the device page {time.monotonic() - assigned:.2f} s after the assignment")
        self.assertIn("has changed since this page was loaded", notice.text)
        self.driver.execute_script("document.getElementById('policy-changed').scrollIntoView({block: 'center'})")
        self.screenshot("device-policy-changed")
        self.assert_accessible("device-policy-changed")
        self.driver.find_element(By.CSS_SELECTOR, "#policy-changed a").click()
        self.wait_for(lambda: "Lobby lock" in self.driver.find_element(By.ID, "effective-policy").text)
        self.assertFalse(self.driver.find_element(By.ID, "policy-changed").is_displayed())
