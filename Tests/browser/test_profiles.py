"""Authoring a profile in the browser and checking the exported .mobileconfig with plistlib."""

import plistlib
import unittest
import urllib.request

from selenium.webdriver.common.by import By

from harness import BrowserTestCase


class ProfileAuthoringTests(BrowserTestCase):
    def create_profile(self, name):
        self.signed_in("admin@test.example")
        self.open("/profiles")
        self.driver.find_element(By.ID, "profile-name").send_keys(name)
        self.click_and_wait(By.ID, "create-profile")
        self.assertEqual(self.heading(), name)
        return self.driver.current_url

    def download(self, path):
        """Fetches with the browser's session cookie, as a download would."""
        cookie = self.driver.get_cookie("pc_session")["value"]
        request = urllib.request.Request(self.server.base + path, headers={"Cookie": f"pc_session={cookie}"})
        with urllib.request.urlopen(request) as response:
            return response.headers, response.read()

    def test_a_kiosk_profile_exports_apple_keys_with_options_inside_app(self):
        profile_url = self.create_profile("Lobby kiosk")
        self.click_and_wait(By.CSS_SELECTOR, "#payload-single-app-mode a.button")
        self.driver.find_element(By.ID, "sam-app").send_keys("com.example.checkin")
        self.driver.find_element(By.CSS_SELECTOR, "input[name='option.DisableAutoLock']").click()
        self.driver.find_element(By.CSS_SELECTOR, "input[name='user.Zoom']").click()
        self.screenshot("payload-single-app-mode")
        self.click_and_wait(By.ID, "save-payload")
        self.assertIn("Saved as version 2", self.driver.find_element(By.CLASS_NAME, "flash").text)
        self.screenshot("profile")

        headers, body = self.download(profile_url.replace(self.server.base, "") + "/versions/2/mobileconfig")
        self.assertEqual(headers["Content-Type"], "application/x-apple-aspen-config")
        plist = plistlib.loads(body)
        self.assertEqual(plist["PayloadType"], "Configuration")
        self.assertEqual(plist["PayloadVersion"], 1)
        self.assertEqual(plist["PayloadIdentifier"], "com.example.profiles.lobby-kiosk")
        self.assertEqual(plist["PayloadDisplayName"], "Lobby kiosk")
        lock = plist["PayloadContent"][0]
        self.assertEqual(lock["PayloadType"], "com.apple.app.lock")
        self.assertEqual(lock["App"]["Identifier"], "com.example.checkin")
        self.assertIs(lock["App"]["Options"]["DisableAutoLock"], True)
        self.assertIs(lock["App"]["Options"]["DisableTouch"], False)
        self.assertIs(lock["App"]["UserEnabledOptions"]["Zoom"], True)
        self.assertNotIn("Options", lock)

    def test_a_bad_geofence_comes_back_with_messages_and_a_good_one_tests_points(self):
        self.create_profile("Field sales")
        self.click_and_wait(By.CSS_SELECTOR, "#payload-geofence a.button")
        self.driver.find_element(By.ID, "area-0-name").send_keys("Head office")
        self.driver.find_element(By.ID, "area-0-latitude").send_keys("95")
        self.driver.find_element(By.ID, "area-0-longitude").send_keys("-0.1276")
        self.click_and_wait(By.ID, "save-payload")
        self.assertIn("−90 to 90", self.driver.find_element(By.ID, "area-0-latitude-error").text)
        self.assertEqual(self.driver.find_element(By.ID, "area-0-name").get_attribute("value"), "Head office")

        latitude = self.driver.find_element(By.ID, "area-0-latitude")
        latitude.clear()
        latitude.send_keys("51.5072")
        self.driver.find_element(By.ID, "test-latitude").send_keys("51.5080")
        self.driver.find_element(By.ID, "test-longitude").send_keys("-0.1276")
        self.click_and_wait(By.ID, "test-point")
        self.assertIn("Inside Head office", self.driver.find_element(By.ID, "test-result").text)
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "svg.geofence-sketch circle.sketch-area"))
        self.screenshot("payload-geofence")
        self.click_and_wait(By.ID, "save-payload")
        self.assertIn("Saved as version 2", self.driver.find_element(By.CLASS_NAME, "flash").text)

    def test_the_history_compares_versions(self):
        self.create_profile("Clinic iPads")
        self.click_and_wait(By.CSS_SELECTOR, "#payload-logging a.button")
        self.click_and_wait(By.ID, "save-payload")
        self.click_and_wait(By.LINK_TEXT, "History")
        sections = [title.text for title in self.driver.find_elements(By.CSS_SELECTOR, "#diff h3")]
        self.assertIn("Logging added", sections)
        rows = [row.text for row in self.driver.find_elements(By.CSS_SELECTOR, "#diff tbody tr")]
        self.assertTrue(any(row.startswith("Level kept") for row in rows), rows)
        self.screenshot("profile-history")

    def test_the_branding_colour_picker_and_numbers_stay_in_step(self):
        self.create_profile("Sales branding")
        self.click_and_wait(By.CSS_SELECTOR, "#payload-branding a.button")
        self.driver.execute_script(
            "const p = document.getElementById('branding-picker'); p.value = '#102030';"
            "p.dispatchEvent(new Event('input'));")
        self.assertEqual(self.driver.find_element(By.ID, "branding-red").get_attribute("value"), "16")
        self.assertEqual(self.driver.find_element(By.ID, "branding-blue").get_attribute("value"), "48")
        green = self.driver.find_element(By.ID, "branding-green")
        green.clear()
        green.send_keys("255")
        self.assertEqual(self.driver.find_element(By.ID, "branding-picker").get_attribute("value"), "#10ff30")
        background = self.driver.find_element(By.ID, "preview-button").value_of_css_property("background-color")
        self.assertIn("16, 255, 48", background)
        self.screenshot("payload-branding")
        self.click_and_wait(By.ID, "save-payload")
        self.assertIn("Saved as version 2", self.driver.find_element(By.CLASS_NAME, "flash").text)
        self.assertIn("#10ff30", self.driver.find_element(By.ID, "payload-branding").text)


if __name__ == "__main__":
    unittest.main()
