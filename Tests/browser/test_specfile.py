"""An AppConfig specfile as an admin brings it in: a broken file refused with its line, the real
one imported on the app's page, the configuration form built from it, values filled in, and
the simulated app receiving them."""

import os
import uuid

from selenium.webdriver.common.by import By


from harness import BrowserTestCase

NOTES = "com.example.clinicnotes"
FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "clinic-notes.xml")


class SpecfileTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("specfile")
        cls.app = cls.api("POST", "/api/v1/apps", {"name": "Clinic Notes", "bundleID": NOTES, "isSDKBuilt": True})["id"]

    def upload(self, path):
        self.driver.find_element(By.ID, "specfile-file").send_keys(path)
        self.click_and_wait(By.ID, "upload-specfile")

    def test_import_a_specfile_fill_the_generated_form_and_the_app_receives_the_values(self):
        group = self.api("POST", "/api/v1/groups", {"name": f"Ward {uuid.uuid4().hex[:6]}"})["id"]
        device = self.api("POST", "/api/v1/devices", {
            "name": "Ward iPad 7", "model": "iPad", "osVersion": "18.1", "serialNumber": f"DMP{uuid.uuid4().hex[:7].upper()}",
            "udid": f"00008101-{uuid.uuid4().hex[:16].upper()}", "isSupervised": True, "groupID": group, "installedApps": [NOTES]})["id"]
        profile = self.api("POST", "/api/v1/profiles", {"name": "Clinic Notes settings", "payloads": []})["id"]
        self.signed_in("admin@test.example")

        # A broken file first: refused with its line, nothing imported.
        broken = os.path.join(self.server.folder, "broken.xml")
        with open(FIXTURE) as source, open(broken, "w") as target:
            target.write(source.read().replace("<value>30</value>", "<value>half an hour</value>"))
        self.open(f"/apps/{self.app}/edit")
        self.upload(broken)
        error = self.driver.find_element(By.ID, "specfile-error").text
        self.assertIn("Nothing was imported", error)
        self.assertIn("Line 17", error)
        self.assertFalse(self.driver.find_elements(By.ID, "specfile-current"))
        self.assert_accessible("specfile-refused")

        self.upload(FIXTURE)
        self.assertIn("Imported 9 keys", self.driver.find_element(By.CLASS_NAME, "flash").text)
        self.assertIn("retryDelays", self.driver.find_element(By.ID, "specfile-skipped").text)
        self.assert_accessible("specfile-imported")

        self.open(f"/profiles/{profile}/payloads/managed-app-config")
        self.fill("config-app", NOTES)
        self.click_and_wait(By.ID, "use-specfile")
        names = [box.get_attribute("value") for box in self.driver.find_elements(By.CSS_SELECTOR, "input[name='keyName']")]
        self.assertEqual(names[:3], ["serverURL", "ward", "userEmail"])
        self.assertIn("Where the app syncs notes.", self.driver.find_element(By.ID, "key-0-description").text)
        # Each value as the spec presents it: a number box with the limits, a tick box, a list.
        self.assertEqual(self.driver.find_element(By.ID, "key-3-value").get_attribute("type"), "number")
        self.assertEqual(self.driver.find_element(By.ID, "key-3-value").get_attribute("max"), "480")
        self.assertEqual(self.driver.find_element(By.ID, "key-5-value").get_attribute("type"), "checkbox")
        self.assertEqual(self.driver.find_element(By.ID, "key-6-value").tag_name, "select")
        self.assert_accessible("specfile-form-presented")
        self.screenshot("specfile-form")
        # The specfile's defaults are there; the admin fills what has none and changes one.
        self.fill("key-1-value", "3B")
        self.fill("key-2-value", "nurse@example.com")
        self.fill("key-3-value", "45")
        self.click_and_wait(By.ID, "save-payload")
        self.assertIn("Managed app configuration", self.driver.find_element(By.TAG_NAME, "main").text)

        self.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        self.open(f"/simulator/{device}")
        self.click_and_wait(By.CSS_SELECTOR, f"button[data-app='{NOTES}']")
        received = self.driver.find_element(By.ID, "app-screen").text
        for expected in ["ward = 3B", "sessionMinutes = 45", "serverURL = https://notes.example.com", "theme = light"]:
            self.assertIn(expected, received)
        self.screenshot("specfile-received")
