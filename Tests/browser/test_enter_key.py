"""Pressing Enter in a payload form's text fields saves (or runs the point test); it never
removes a row, which is what implicit submission of the first submit button used to do."""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import BrowserTestCase


class EnterKeyTests(BrowserTestCase):
    def open_payload_form(self, profile_name, kind):
        self.signed_in("admin@test.example")
        self.open("/profiles")
        self.driver.find_element(By.ID, "profile-name").send_keys(profile_name)
        self.click_and_wait(By.ID, "create-profile")
        self.click_and_wait(By.CSS_SELECTOR, f"#payload-{kind} a.button")

    def press_enter_in(self, element_id):
        self.driver.execute_script("window.__leaving = true")
        self.driver.find_element(By.ID, element_id).send_keys(Keys.ENTER)
        self.wait_for_new_page()

    def test_enter_in_a_geofence_area_saves_and_keeps_the_area(self):
        self.open_payload_form("Enter geofence", "geofence")
        self.driver.find_element(By.ID, "area-0-name").send_keys("Head office")
        self.driver.find_element(By.ID, "area-0-latitude").send_keys("51.5072")
        self.driver.find_element(By.ID, "area-0-longitude").send_keys("-0.1276")
        self.press_enter_in("area-0-name")
        self.assertIn("Saved as version 2", self.driver.find_element(By.CLASS_NAME, "flash").text)
        self.assertIn("Head office", self.driver.find_element(By.ID, "payload-geofence").text)

    def test_enter_in_the_test_point_boxes_runs_the_point_test(self):
        self.open_payload_form("Enter point test", "geofence")
        self.driver.find_element(By.ID, "area-0-name").send_keys("Head office")
        self.driver.find_element(By.ID, "area-0-latitude").send_keys("51.5072")
        self.driver.find_element(By.ID, "area-0-longitude").send_keys("-0.1276")
        self.driver.find_element(By.ID, "test-latitude").send_keys("51.5080")
        self.driver.find_element(By.ID, "test-longitude").send_keys("-0.1276")
        self.press_enter_in("test-latitude")
        self.assertIn("Inside Head office", self.driver.find_element(By.ID, "test-result").text)
        self.assertEqual(self.driver.find_element(By.ID, "area-0-name").get_attribute("value"), "Head office")

    def test_enter_in_a_bad_allowlist_row_keeps_every_row(self):
        self.open_payload_form("Enter allowlist", "asam-allowlist")
        first = self.driver.find_element(By.CSS_SELECTOR, "input[name='apps']")
        first.send_keys("com.example.exam")
        self.click_and_wait(By.ID, "add-app")
        rows = self.driver.find_elements(By.CSS_SELECTOR, "input[name='apps']")
        self.assertEqual(len(rows), 2)
        rows[1].send_keys("not a bundle id")
        self.press_enter_in(rows[1].get_attribute("id"))
        values = [row.get_attribute("value") for row in self.driver.find_elements(By.CSS_SELECTOR, "input[name='apps']")]
        self.assertEqual(values, ["com.example.exam", "not a bundle id"])
        self.screenshot("payload-asam-enter-refused")

    def test_enter_in_a_managed_configuration_key_keeps_the_key(self):
        self.open_payload_form("Enter config", "managed-app-config")
        self.driver.find_element(By.ID, "config-app").send_keys("com.example.notes")
        self.driver.find_element(By.ID, "key-0-name").send_keys("serverURL")
        self.press_enter_in("key-0-name")
        self.assertIn("Saved as version 2", self.driver.find_element(By.CLASS_NAME, "flash").text)
        self.assertIn("1 key for com.example.notes", self.driver.find_element(By.ID, "payload-managed-app-config").text)


if __name__ == "__main__":
    unittest.main()
