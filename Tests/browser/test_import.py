"""A signed .mobileconfig exported by one console imported as a new profile (the console asks
first, as a profile has its identifier): the page says what came across, who signed it, and what
was left out."""

import os
import urllib.request

from selenium.webdriver.common.by import By

from harness import BrowserTestCase


class ImportTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("import")

    def test_a_signed_export_comes_back_as_a_profile_with_its_signer_and_what_was_left_out(self):
        profile = self.api("POST", "/api/v1/profiles", {"name": "Lobby lock", "identifier": "com.example.lobby", "payloads": [
            {"PayloadType": "com.apple.app.lock", "App": {"Identifier": "com.example.checkin"}},
            {"PayloadType": "com.payloadconsole.sdk.logging", "enabled": True, "level": "warning", "wifiOnly": False}]})
        request = urllib.request.Request(f"{self.server.base}/api/v1/profiles/{profile['id']}/versions/{profile['version']}/mobileconfig?signed=true",
                                         headers={"Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request) as response:
            signed = response.read()
        path = os.path.join(self.server.folder, "lobby-signed.mobileconfig")
        with open(path, "wb") as file:
            file.write(signed)

        self.signed_in("admin@test.example")
        self.open("/profiles")
        self.driver.find_element(By.ID, "import-file").send_keys(path)
        self.click_and_wait(By.ID, "import-profile")
        # Its identifier is the exported profile's: the console asks, and a new profile is chosen.
        self.assertEqual(self.heading(), "This profile is here already")
        self.driver.find_element(By.CSS_SELECTOR, "input[name='destination'][value='new-profile']").click()
        self.click_and_wait(By.ID, "import-choice")
        self.assertEqual(self.heading(), "Imported Lobby lock")
        self.assertIn("this console's signing identity", self.driver.find_element(By.ID, "imported-signature").text)
        self.assertEqual("Single App Mode, Logging", self.driver.find_element(By.ID, "imported-payloads").text)
        self.screenshot("profile-imported")
        self.assert_accessible("profile-imported")
        self.click_and_wait(By.ID, "imported-profile")
        self.assertIn("com.example.lobby.imported", self.driver.find_element(By.TAG_NAME, "main").text)
