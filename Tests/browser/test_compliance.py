"""Compliance and custom settings as an admin sets them up and a device meets them: a rule
written in the form (refused once, beside its field), the simulated app blocked with the rule,
brought back in line by an update, its status beacon on the device page; custom settings
checked before saving and received by the app."""


from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from harness import BrowserTestCase

NOTES = "com.example.clinicnotes"


class ComplianceTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("compliance")
        cls.api("POST", "/api/v1/apps", {"name": "Clinic Notes", "bundleID": NOTES, "isSDKBuilt": True})

    def test_a_rule_blocks_the_app_until_it_is_updated_and_the_beacon_reports_it(self):
        group, device = self.device_in_new_group("Ward iPad 1", NOTES, group="Ward")
        profile = self.api("POST", "/api/v1/profiles", {"name": "Clinic compliance", "payloads": []})["id"]
        self.signed_in("admin@test.example")

        self.open(f"/profiles/{profile}/payloads/compliance")
        Select(self.driver.find_element(By.ID, "rule-0-subject")).select_by_visible_text("App version")
        self.fill("rule-0-app", NOTES)
        Select(self.driver.find_element(By.ID, "rule-0-comparison")).select_by_visible_text("earlier than")
        self.fill("rule-0-version", "5.2 beta")
        self.click_and_wait(By.ID, "save-payload")
        # Refused beside the version, with what was typed kept.
        self.assertIn("Enter a version", self.driver.find_element(By.ID, "rule-0-version-error").text)
        self.assertEqual(self.driver.find_element(By.ID, "rule-0-app").get_attribute("value"), NOTES)
        self.assert_accessible("compliance-refused")
        self.fill("rule-0-version", "5.2")
        self.click_and_wait(By.ID, "save-payload")
        self.assertIn("Clinic Notes earlier than 5.2", self.driver.find_element(By.TAG_NAME, "main").text.replace(NOTES, "Clinic Notes"))

        self.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        self.open(f"/simulator/{device}")
        self.click_and_wait(By.CSS_SELECTOR, f"button[data-app='{NOTES}']")
        blocker = self.driver.find_element(By.ID, "sdk-blocker").text
        self.assertIn("Clinic Notes earlier than 5.2", blocker)
        self.assertEqual(self.driver.find_element(By.ID, "sim-compliance").text, "Blocked")
        self.screenshot("compliance-blocked")

        self.fill("app-version", "5.10")
        self.click_and_wait(By.ID, "set-app-version")
        self.assertFalse(self.driver.find_elements(By.ID, "sdk-blocker"), "5.10 is later than 5.2")
        self.assertEqual(self.driver.find_element(By.ID, "sim-compliance").text, "Compliant")
        self.click_and_wait(By.ID, "send-beacon")

        self.open(f"/devices/{device}")
        self.assertIn("Compliant", self.driver.find_element(By.ID, "compliance-status").text)
        self.driver.find_element(By.CSS_SELECTOR, "#status-beacon summary").click()
        beacon = self.driver.find_element(By.ID, "status-beacon").text
        self.assertIn(f"{NOTES} 5.10", beacon)
        self.assertIn("iOS 18.1", beacon)
        self.assert_accessible("device-beacon")

    def test_custom_settings_are_checked_before_saving_and_reach_the_app(self):
        group, device = self.device_in_new_group("Ward iPad 2", NOTES, group="Ward")
        profile = self.api("POST", "/api/v1/profiles", {"name": "Clinic settings", "payloads": []})["id"]
        self.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        self.signed_in("admin@test.example")
        self.open(f"/profiles/{profile}/payloads/custom-settings")
        self.fill("custom-text", '{\n  "ward": "3B",\n  "printer": "lobby",\n}')
        self.click_and_wait(By.ID, "save-payload")
        self.assertIn("line 3", self.driver.find_element(By.ID, "custom-text-error").text)
        self.assertIn("JSON", self.driver.find_element(By.ID, "custom-format").text)
        self.assert_accessible("custom-settings-refused")
        self.fill("custom-text", '{\n  "ward": "3B",\n  "printer": "lobby"\n}')
        self.click_and_wait(By.ID, "save-payload")
        # The profile reaches a device, so the save goes through its impact preview.
        self.click_and_wait(By.ID, "confirm-change")

        self.open(f"/simulator/{device}")
        self.click_and_wait(By.CSS_SELECTOR, f"button[data-app='{NOTES}']")
        received = self.driver.find_element(By.ID, "custom-settings-received").text
        self.assertIn('"ward": "3B"', received)
        self.screenshot("custom-settings-received")
