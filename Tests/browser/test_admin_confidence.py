"""What an admin trusts before saving (issue 24): the impact preview names the devices an SDK
rule will block, importing the same profile twice asks first, the audit log points at a
reversed range, and a new DLP payload starts restrictive — each page checked with axe."""

import os
import urllib.request
import uuid

from selenium.webdriver.common.by import By

from harness import BrowserTestCase

KIOSK_APP = "com.example.kioskcheckin"


class AdminConfidenceTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("confidence")
        cls.api("POST", "/api/v1/apps", {"name": "Kiosk Check-In", "bundleID": KIOSK_APP, "isSDKBuilt": True})

    def test_the_impact_preview_names_the_devices_an_os_rule_blocks(self):
        group, _ = self.device_in_new_group("Front kiosk", KIOSK_APP, group="Front desk")
        profile = self.api("POST", "/api/v1/profiles", {"name": "iOS floor", "payloads": [
            {"PayloadType": "com.payloadconsole.sdk.compliance", "rules": [
                {"subject": "os-version", "comparison": "lessThan", "version": "19", "action": "block"}]}]})["id"]
        self.signed_in("admin@test.example")
        self.open(f"/profiles/{profile}/assignments/preview?groupID={group}")
        line = self.driver.find_element(By.CLASS_NAME, "impact-sdk").text
        self.assertIn("1 device: SDK apps blocked: iOS earlier than 19", line)
        self.assertIn("Front kiosk", line)
        self.assert_accessible("impact-sdk-effects")

    def test_importing_the_same_profile_again_asks_where_it_goes(self):
        identifier = f"com.example.lobby{uuid.uuid4().hex[:6]}"
        profile = self.api("POST", "/api/v1/profiles", {"name": "Lobby lock", "identifier": identifier, "payloads": [
            {"PayloadType": "com.apple.app.lock", "App": {"Identifier": KIOSK_APP}}]})
        request = urllib.request.Request(f"{self.server.base}/api/v1/profiles/{profile['id']}/versions/{profile['version']}/mobileconfig",
                                         headers={"Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request) as response:
            path = os.path.join(self.server.folder, "lobby-again.mobileconfig")
            with open(path, "wb") as file:
                file.write(response.read())
        self.signed_in("admin@test.example")
        self.open("/profiles")
        self.driver.find_element(By.ID, "import-file").send_keys(path)
        self.click_and_wait(By.ID, "import-profile")
        self.assertEqual(self.heading(), "This profile is here already")
        self.assert_accessible("import-choice")
        # The matching profile's new version is chosen already; the keyboard confirms it.
        self.click_and_wait(By.ID, "import-choice")
        self.assertEqual(self.heading(), "Imported Lobby lock")
        self.assertIn(f"version {profile['version'] + 1} of this profile", self.driver.find_element(By.ID, "imported-placement").text)

    def test_a_reversed_audit_range_is_pointed_out_beside_the_days(self):
        self.signed_in("admin@test.example")
        self.open("/audit?from=2026-11-20&through=2026-11-01")
        error = self.driver.find_element(By.ID, "audit-range-error").text
        self.assertIn("Through (2026-11-01) is before From (2026-11-20)", error)
        self.assertEqual(self.driver.find_element(By.ID, "audit-through").get_attribute("aria-invalid"), "true")
        self.assertNotIn("No entries match", self.driver.find_element(By.TAG_NAME, "main").text)
        self.assert_accessible("audit-reversed-range")

    def test_a_new_dlp_payload_starts_restrictive(self):
        profile = self.api("POST", "/api/v1/profiles", {"name": f"Clinic DLP {uuid.uuid4().hex[:4]}", "payloads": []})["id"]
        self.signed_in("admin@test.example")
        self.open(f"/profiles/{profile}/payloads/dlp")
        self.assertTrue(self.driver.find_element(By.ID, "dlp-starts-restrictive").is_displayed())
        self.assertTrue(self.driver.find_element(By.CSS_SELECTOR, "input[name='CopyPasteOut'][value='no']").is_selected())
        self.assertTrue(self.driver.find_element(By.CSS_SELECTOR, "input[name='OpenLinksInManagedBrowser'][value='yes']").is_selected())
        self.assert_accessible("dlp-new")
