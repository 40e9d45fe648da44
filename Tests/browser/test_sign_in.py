"""Sign-in, sign-out and roles, as a person does them in a real browser."""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import BrowserTestCase, PASSWORD


class SignInTests(BrowserTestCase):
    def test_sign_in_shows_the_dashboard_and_sign_out_returns_to_sign_in(self):
        self.open("/")
        self.assertIn("/sign-in", self.driver.current_url)
        self.screenshot("sign-in")
        self.sign_in("admin@test.example")
        self.assertTrue(self.driver.current_url.endswith("/dashboard"))
        self.assertEqual(self.heading(), "Dashboard")
        self.assertIn("admin@test.example", self.driver.find_element(By.CLASS_NAME, "account").text)
        self.screenshot("dashboard")

        self.click_and_wait(By.ID, "sign-out")
        self.assertIn("/sign-in", self.driver.current_url)
        self.assertIn("You are signed out.", self.driver.find_element(By.CLASS_NAME, "flash").text)
        self.open("/dashboard")
        self.assertIn("/sign-in", self.driver.current_url)

    def test_a_wrong_password_shows_the_error_and_keeps_the_email(self):
        self.sign_in("admin@test.example", password="not the password")
        error = self.driver.find_element(By.ID, "sign-in-error")
        self.assertIn("The email or password is not right", error.text)
        self.assertEqual(self.driver.find_element(By.ID, "email").get_attribute("value"), "admin@test.example")
        self.assertEqual(self.driver.find_element(By.ID, "password").get_attribute("value"), "")
        self.screenshot("sign-in-wrong-password")

    def test_a_viewer_cannot_reach_an_admin_page(self):
        self.sign_in("viewer@test.example")
        self.assertEqual(self.heading(), "Dashboard")
        nav = self.driver.find_element(By.CSS_SELECTOR, "nav[aria-label=Main]").text
        self.assertNotIn("Users", nav)
        self.open("/users")
        self.assertEqual(self.heading(), "You don’t have access to this page")
        self.screenshot("viewer-forbidden")

    def test_the_sign_in_form_works_from_the_keyboard(self):
        self.open("/sign-in")
        active = self.driver.switch_to.active_element
        self.assertEqual(active.get_attribute("id"), "email")  # autofocus
        active.send_keys("helpdesk@test.example", Keys.TAB)
        self.driver.execute_script("window.__leaving = true")
        self.driver.switch_to.active_element.send_keys(PASSWORD, Keys.ENTER)
        self.wait_for_new_page()
        self.assertEqual(self.heading(), "Dashboard")
        self.assertIn("Helpdesk", self.driver.find_element(By.CLASS_NAME, "role-badge").text)


class UserAdministrationTests(BrowserTestCase):
    def test_an_admin_adds_a_user_who_signs_in_with_the_one_time_password(self):
        self.sign_in("admin@test.example")
        self.click_and_wait(By.LINK_TEXT, "Settings")
        self.click_and_wait(By.LINK_TEXT, "Users")
        self.driver.find_element(By.ID, "new-email").send_keys("new.person@test.example")
        self.driver.find_element(By.CSS_SELECTOR, "input[name=role][value=helpdesk]").click()
        self.click_and_wait(By.ID, "add-user")
        panel = self.driver.find_element(By.ID, "one-time-password")
        password = panel.find_element(By.CLASS_NAME, "secret").text
        self.assertGreaterEqual(len(password), 20)
        self.screenshot("users-added")
        self.click_and_wait(By.ID, "sign-out")

        self.sign_in("new.person@test.example", password=password)
        self.assertEqual(self.heading(), "Change your password")
        self.driver.find_element(By.ID, "current").send_keys(password)
        self.driver.find_element(By.ID, "new").send_keys("my own passphrase")
        self.driver.find_element(By.ID, "confirmation").send_keys("my own passphrase")
        self.click_and_wait(By.ID, "change-password")
        self.assertEqual(self.heading(), "Dashboard")

    def test_an_invalid_email_is_reported_beside_the_field(self):
        self.sign_in("admin@test.example")
        self.open("/users")
        self.driver.find_element(By.ID, "new-email").send_keys("not an email")
        self.click_and_wait(By.ID, "add-user")
        self.assertIn("Enter an email address like", self.driver.find_element(By.ID, "new-email-error").text)
        self.assertEqual(self.driver.find_element(By.ID, "new-email").get_attribute("value"), "not an email")

    def test_the_users_page_fits_a_tablet(self):
        self.driver.set_window_size(820, 1180)
        self.sign_in("admin@test.example")
        self.open("/users")
        width = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, 820)
        self.screenshot("users-tablet")


if __name__ == "__main__":
    unittest.main()
