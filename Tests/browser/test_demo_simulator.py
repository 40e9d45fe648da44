"""The demo's clinic story in the simulator: an SDK app opens on its branded sign-in screen,
shows the managed configuration it received, and DLP stops patient data leaving for a
personal app."""

import os
import unittest

from selenium.webdriver.common.by import By

from harness import SCREENSHOTS, BrowserTestCase, ConsoleServer


class DemoSimulatorTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ConsoleServer(demo=True)
        cls.server.add_user("admin@test.example", "admin")
        cls.server.start()
        os.makedirs(SCREENSHOTS, exist_ok=True)

    def act(self, button_id):
        self.click_and_wait(By.ID, button_id)
        return self.driver.find_element(By.CLASS_NAME, "flash").text

    def open_app(self, bundle_id):
        self.click_and_wait(By.CSS_SELECTOR, f"button.home-app[data-app='{bundle_id}']")

    def test_clinic_notes_signs_in_shows_its_configuration_and_keeps_data_from_personal_apps(self):
        self.signed_in("admin@test.example")
        self.open("/devices?group=")
        self.click_and_wait(By.LINK_TEXT, "Clinic iPad 01")
        self.click_and_wait(By.ID, "open-simulator")

        self.open_app("com.example.clinicnotes")
        self.assertTrue(self.driver.find_element(By.ID, "sdk-signin").is_displayed())
        self.screenshot("simulator-clinic-sign-in")
        self.assertIn("Signed in", self.act("sdk-sign-in"))
        screen = self.driver.find_element(By.ID, "app-screen").text
        self.assertIn("ward = North", screen)
        self.assertIn("autoLogoutMinutes = 10", screen)

        copy_text = self.driver.find_element(By.ID, "copy-text")
        copy_text.clear()
        copy_text.send_keys("Patient 4711")
        self.assertIn("only into managed or SDK apps", self.act("copy-button"))
        self.click_and_wait(By.ID, "home-button")
        self.open_app("com.social.chat")
        flash = self.act("paste-button")
        self.assertIn("Blocked", flash)
        self.assertIn("Social Chat is neither", flash)
        self.screenshot("simulator-clinic-paste-blocked")

        # Into another managed app the same text pastes.
        self.click_and_wait(By.ID, "home-button")
        self.open_app("com.example.mail")
        self.assertIn("Pasted “Patient 4711”", self.act("paste-button"))

        # A third-party keyboard gives way to the system keyboard in SDK apps.
        self.assertIn("system keyboard replaces", self.act("show-keyboard"))

        # Work Mail logs at Information (the clinic's level); Debug is not kept.
        self.driver.find_element(By.CSS_SELECTOR, "#log-level option[value='debug']").click()
        self.assertIn("Not kept", self.act("emit-log"))
        message = self.driver.find_element(By.ID, "log-message")
        message.clear()
        message.send_keys("Ward round synced")
        self.driver.find_element(By.CSS_SELECTOR, "#log-level option[value='warning']").click()
        self.assertIn("uploading now", self.act("emit-log"))
        self.click_and_wait(By.LINK_TEXT, "uploaded to the console")
        self.assertEqual(self.heading(), "App logs")
        first = self.driver.find_element(By.CSS_SELECTOR, "table.logs tbody tr")
        self.assertIn("Ward round synced", first.text)
        self.assertIn("Clinic iPad 01", first.text)
        self.screenshot("logs")


if __name__ == "__main__":
    unittest.main()
