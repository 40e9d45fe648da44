"""A payload form's list buttons leave the keyboard where the person was: "Add another app"
puts the focus in the new row, "Remove" in the row that took the removed one's place, "↑" on
the moved row, "Add an area" in the new area's name, and "Test" on Test beside its result —
not at the top of the page, a dozen Tab stops away. Checked in the ASAM allowlist, Required
apps (one shared list form) and the geofence."""

import unittest

from selenium.webdriver.common.by import By

from harness import BrowserTestCase


class ListButtonFocusTests(BrowserTestCase):
    def open_payload_form(self, profile_name, kind):
        self.signed_in("admin@test.example")
        self.open("/profiles")
        self.driver.find_element(By.ID, "profile-name").send_keys(profile_name)
        self.click_and_wait(By.ID, "create-profile")
        self.click_and_wait(By.CSS_SELECTOR, f"#payload-{kind} a.button")

    def focused(self):
        return self.driver.switch_to.active_element.get_attribute("id")

    def check_app_list(self, kind, prefix):
        self.open_payload_form(f"Focus {kind}", kind)
        self.driver.find_element(By.ID, f"{prefix}-0").send_keys("com.example.first")
        self.click_and_wait(By.ID, "add-app")
        self.assertEqual(self.focused(), f"{prefix}-1", "the new row")
        self.driver.switch_to.active_element.send_keys("com.example.second")
        self.click_and_wait(By.CSS_SELECTOR, "button[value='up.1']")
        self.assertEqual(self.focused(), f"{prefix}-0", "the moved row, now first")
        self.assertEqual(self.driver.find_element(By.ID, f"{prefix}-0").get_attribute("value"), "com.example.second")
        self.click_and_wait(By.CSS_SELECTOR, "button[value='remove.0']")
        self.assertEqual(self.focused(), f"{prefix}-0", "the row that took the removed one's place")
        self.assertEqual(self.driver.find_element(By.ID, f"{prefix}-0").get_attribute("value"), "com.example.first")
        self.screenshot(f"payload-{kind}-focus")

    def test_the_asam_allowlist_keeps_the_focus_on_the_row_touched(self):
        self.check_app_list("asam-allowlist", "asam-app")

    def test_required_apps_keeps_the_focus_on_the_row_touched(self):
        self.check_app_list("required-apps", "required-app")

    def test_the_geofence_keeps_the_focus_on_the_area_added_and_on_test(self):
        self.open_payload_form("Focus geofence", "geofence")
        self.driver.find_element(By.ID, "area-0-name").send_keys("Head office")
        self.driver.find_element(By.ID, "area-0-latitude").send_keys("51.5072")
        self.driver.find_element(By.ID, "area-0-longitude").send_keys("-0.1276")
        self.click_and_wait(By.ID, "add-area")
        self.assertEqual(self.focused(), "area-1-name")
        self.click_and_wait(By.CSS_SELECTOR, "button[value='remove.1']")
        self.assertEqual(self.focused(), "area-0-name")
        self.driver.find_element(By.ID, "test-latitude").send_keys("51.5080")
        self.driver.find_element(By.ID, "test-longitude").send_keys("-0.1276")
        self.click_and_wait(By.ID, "test-point")
        self.assertEqual(self.focused(), "test-point")
        self.assertIn("Inside Head office", self.driver.find_element(By.ID, "test-result").text)


if __name__ == "__main__":
    unittest.main()
