"""Helpdesk's minute and a stakeholder's simulator, in Chromium on a `--demo` start: part of a
name finds the kiosk and one match opens by keyboard; the kiosk's page leads with what its
policy makes it do apart from what it reported, when it should answer a log request, and its
crash groups; the simulator keeps the location chosen with its answer in view, names its
accessibility buttons plainly, and shows the tour step it was opened from with the way on.
Every page passes axe-core, on a laptop and a tablet."""

import os

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from harness import SCREENSHOTS, BrowserTestCase, ConsoleServer, make_driver


class HelpdeskMinuteTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ConsoleServer(demo=True)
        cls.server.add_user("hal@test.example", "helpdesk")
        cls.server.start()
        os.makedirs(SCREENSHOTS, exist_ok=True)

    def test_part_of_a_name_finds_the_kiosk_and_its_page_says_what_policy_does_and_when_it_answers(self):
        self.signed_in("hal@test.example")
        self.open("/devices")
        self.fill("device-search", "kiosk 03")
        self.driver.find_element(By.ID, "device-search").send_keys(Keys.ENTER)
        self.wait_for_new_page()
        only = self.driver.find_element(By.ID, "open-only-match")
        self.assertEqual(only.text, "Open Lobby kiosk 03")
        self.assert_accessible("device-search-one-match")
        # Keyboard: from the search box, the next stop past the filters is not needed — the
        # link itself takes focus and Enter opens it.
        self.driver.execute_script("arguments[0].focus()", only)
        only.send_keys(Keys.ENTER)
        self.wait_for_new_page()
        self.assertEqual(self.heading(), "Lobby kiosk 03")
        self.screenshot("device-page-top")

        policy = self.driver.find_element(By.ID, "lock-policy").text
        self.assertIn("Single App Mode in Lobby Check-In", policy)
        self.assertIn("“Lobby kiosk lockdown”", policy)
        self.assertIn("Lock last reported", self.driver.find_element(By.CSS_SELECTOR, "#lock-status").find_element(By.XPATH, "preceding-sibling::dt[1]").text)
        self.assertIn("checks in through its simulator while the simulator is open", self.driver.find_element(By.ID, "request-logs-when").text)
        self.assertTrue(self.driver.find_element(By.ID, "answer-in-simulator").get_attribute("href").endswith("/simulator/" + self.driver.current_url.rsplit("/", 1)[1]))
        times = [element.get_attribute("datetime") for element in self.driver.find_elements(By.CSS_SELECTOR, "#recent-log-rows time")]
        self.assertEqual(times, sorted(times, reverse=True), "recent logs newest first by when they were logged")
        self.assert_accessible("device-page-lock-and-check-in")
        self.click_and_wait(By.ID, "device-crash-groups")
        self.assertIn("Device: Lobby kiosk 03", self.driver.find_element(By.CSS_SELECTOR, ".filter-device").text)
        self.assert_accessible("device-crash-groups")

    def test_the_simulator_keeps_the_place_chosen_names_buttons_plainly_and_follows_the_tour(self):
        in_window = "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight + 1"
        for width, height, name in [(1280, 800, "laptop"), (820, 1180, "tablet"), (1920, 1080, "wide")]:
            self.driver.quit()
            self.driver = make_driver(width, height)
            self.driver.implicitly_wait(2)
            self.signed_in("hal@test.example")
            self.open("/devices?q=Sales+iPhone+01")
            self.click_and_wait(By.ID, "open-only-match")
            self.click_and_wait(By.ID, "open-simulator")
            self.assertEqual(self.driver.find_element(By.ID, "accessibility-voiceOver").text, "VoiceOver")
            choice = Select(self.driver.find_element(By.ID, "location-preset"))
            choice.select_by_visible_text("North depot (inside)")
            self.click_and_wait(By.ID, "set-location")
            choice = Select(self.driver.find_element(By.ID, "location-preset"))
            self.assertEqual(choice.first_selected_option.text, "North depot (inside)", "the choice stays after Go")
            result = self.driver.find_element(By.ID, "location-result")
            self.screenshot(f"simulator-location-{name}-after-go")
            self.assertIn("inside North depot", result.text)
            in_view = self.driver.execute_script(
                "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight + 1", result)
            self.assertTrue(in_view, f"{name}: the answer to Go is in view " + str(self.driver.execute_script(
                "const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight, window.scrollY]", result)))
            self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "set-location", "focus stays on Go")
            # What the press did stays in sight beside the control: the device's screen and the
            # timeline's newest entry, which is this press.
            newest = self.driver.find_element(By.CSS_SELECTOR, "#timeline .event")
            self.assertIn("Set location 53.4808, -2.2426", newest.text)
            for what, element in [("the device's screen", self.driver.find_element(By.ID, "sim-screen")), ("the newest timeline entry", newest)]:
                self.assertTrue(self.driver.execute_script(in_window, element), f"{name}: {what} is in view " + str(
                    self.driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight, window.scrollY]", element)))
            self.assert_accessible(f"simulator-location-{name}")

        # The tour: a simulator opened from a step shows it, and Done — next step goes on.
        self.open("/tour")
        self.click_and_wait(By.ID, "go-kiosk-home")
        banner = self.driver.find_element(By.ID, "tour-step")
        self.assertIn("step 2 of 6", banner.text)
        self.assertIn("Press Home", banner.text)
        self.assert_accessible("simulator-tour-step")
        self.click_and_wait(By.ID, "tour-next-step")
        self.assertIn("step 3 of 6", self.driver.find_element(By.ID, "tour-step").text)
        self.click_and_wait(By.ID, "tour-back")
        self.assertIn("done", self.driver.find_element(By.ID, "step-kiosk-home").get_attribute("class"))
