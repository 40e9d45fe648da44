"""A stakeholder's first minutes on a fresh `--demo` start: signing in opens the tour, and the
first two stories, walked step by step from it, show in the simulator exactly the rule each
step promises. The dashboard's stories and the tour pass axe-core."""

import os
import unittest

from selenium.webdriver.common.by import By

from harness import SCREENSHOTS, BrowserTestCase, ConsoleServer


class TourTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ConsoleServer(demo=True)
        cls.server.add_user("lead@test.example", "admin")
        cls.server.add_user("desk@test.example", "helpdesk")
        cls.server.start()
        os.makedirs(SCREENSHOTS, exist_ok=True)

    def promised_rule(self, step):
        return self.driver.find_element(By.CSS_SELECTOR, f"#step-{step} q").text

    def start_step(self, step):
        """From the tour, follows the step's link and answers the rule the step promises."""
        self.open("/tour")
        rule = self.promised_rule(step) if self.driver.find_elements(By.CSS_SELECTOR, f"#step-{step} q") else None
        self.click_and_wait(By.ID, f"go-{step}")
        return rule

    def latest_rule(self):
        return self.driver.find_element(By.CSS_SELECTOR, "#timeline li.event .small-text").text.removeprefix("Rule: ")

    def finish_step(self, step, rule):
        if rule:
            self.assertEqual(self.latest_rule(), rule, f"{step}: the simulator shows the rule the tour names")
        self.open("/tour")
        self.click_and_wait(By.CSS_SELECTOR, f"#step-{step} button")
        self.assertIn("done", self.driver.find_element(By.ID, f"step-{step}").get_attribute("class"))

    def press(self, button_id):
        self.click_and_wait(By.ID, button_id)

    def open_app(self, bundle_id):
        self.click_and_wait(By.CSS_SELECTOR, f"button.home-app[data-app='{bundle_id}']")

    def test_every_page_a_step_opens_leads_on_and_a_story_starts_again_as_promised(self):
        self.signed_in("desk@test.example")
        self.open("/dashboard")
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "nav a[href='/tour']"), "the navigation leads to the tour")
        # A step that is not in the simulator shows itself on its page, with the way on.
        self.start_step("kiosk-crashes")
        banner = self.driver.find_element(By.ID, "tour-step")
        self.assertIn("Lobby kiosk, step 5 of 6", banner.text)
        self.screenshot("tour-banner-crash-groups")
        self.assert_accessible("tour-banner-crash-groups")
        self.click_and_wait(By.ID, "tour-next-step")
        self.assertIn("History of", self.heading())
        self.assertIn("step 6 of 6", self.driver.find_element(By.ID, "tour-step").text)

        # Pressing Home adds to the kiosk's timeline; starting the story again clears it, so
        # step 1's promise — the first line is the policy applied — holds on a second run.
        self.start_step("kiosk-home")
        self.press("home-button")
        self.open("/tour")
        self.click_and_wait(By.ID, "restart-kiosk")
        self.assertIn("Lobby kiosk starts again", self.driver.find_element(By.CSS_SELECTOR, ".flash").text)
        self.assertNotIn("done", self.driver.find_element(By.ID, "step-kiosk-crashes").get_attribute("class"))
        rule = self.start_step("kiosk-open")
        events = self.driver.find_elements(By.CSS_SELECTOR, "#timeline li.event")
        self.assertEqual(len(events), 1, "a fresh timeline")
        self.assertEqual(self.latest_rule(), rule)
        self.screenshot("tour-kiosk-started-again")
        for width, height, name in [(1280, 800, "laptop"), (1920, 1080, "wide"), (820, 1180, "tablet")]:
            self.driver.set_window_size(width, height)
            self.open("/tour")
            self.screenshot(f"tour-{name}")
        self.open("/tour")
        self.assert_accessible("tour-tablet")

    def test_signing_in_opens_the_tour_and_the_first_two_stories_show_what_they_promise(self):
        self.sign_in("lead@test.example")
        self.assertEqual(self.heading(), "Tour", "the first sign-in of a demo start opens the tour")
        self.assert_accessible("tour")

        # Lobby kiosk: Single App Mode holds through Home, restart and a crash.
        rule = self.start_step("kiosk-open")
        self.assertIn("Single App Mode", self.driver.find_element(By.ID, "sim-lock").text)
        rules = [element.text.removeprefix("Rule: ") for element in self.driver.find_elements(By.CSS_SELECTOR, "#timeline li.event .small-text")]
        self.assertIn(rule, rules)
        self.screenshot("tour-kiosk-locked")
        self.finish_step("kiosk-open", None)
        for step, button in [("kiosk-home", "home-button"), ("kiosk-restart", "restart-button"), ("kiosk-crash", "crash-app")]:
            rule = self.start_step(step)
            self.press(button)
            self.assertIn("Lobby Check-In", self.driver.find_element(By.ID, "app-screen").text, f"{step}: still in the check-in app")
            self.finish_step(step, rule)
        self.start_step("kiosk-crashes")
        rows = [row.text for row in self.driver.find_elements(By.CSS_SELECTOR, "table tbody tr")]
        badge = next(row for row in rows if "BadgePrinter.flush()" in row)
        self.assertIn(" 4 2.4.0 ", badge, "four kiosks, one version")
        self.assertTrue(any("EXC_CRASH (SIGABRT)" in row for row in rows), "and the crash just caused, by its first line")
        self.finish_step("kiosk-crashes", None)
        self.start_step("kiosk-history")
        self.assertIn("Visitors may turn on Zoom and VoiceOver", self.driver.page_source)
        self.finish_step("kiosk-history", None)

        # Clinic: the patient hand-over in Clinic Notes' own lock, and DLP.
        rule = self.start_step("clinic-open")
        self.open_app("com.example.clinicnotes")
        self.assertTrue(self.driver.find_element(By.ID, "sdk-signin").is_displayed())
        self.finish_step("clinic-open", rule)
        rule = self.start_step("clinic-sign-in")
        self.press("sdk-sign-in")
        self.assertIn("ward = North", self.driver.find_element(By.ID, "app-screen").text)
        self.finish_step("clinic-sign-in", rule)
        rule = self.start_step("clinic-hand-over")
        self.press("request-asam")
        self.press("prompt-yes")
        self.assertIn("Autonomous Single App Mode", self.driver.find_element(By.ID, "sim-lock").text)
        self.screenshot("tour-clinic-hand-over")
        self.finish_step("clinic-hand-over", rule)
        rule = self.start_step("clinic-home")
        self.press("home-button")
        self.finish_step("clinic-home", rule)
        rule = self.start_step("clinic-hand-back")
        self.press("request-unlock")
        self.assertFalse(self.driver.find_elements(By.ID, "sim-lock"))
        self.finish_step("clinic-hand-back", rule)
        rule = self.start_step("clinic-copy")
        copy_text = self.driver.find_element(By.ID, "copy-text")
        copy_text.clear()
        copy_text.send_keys("J. Smith, bed 4")
        self.press("copy-button")
        self.finish_step("clinic-copy", rule)
        rule = self.start_step("clinic-paste")
        self.press("home-button")
        self.open_app("com.social.chat")
        self.press("paste-button")
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "#timeline li.event .status").text, "blocked")
        self.finish_step("clinic-paste", rule)
        rule = self.start_step("clinic-chat-lock")
        self.press("request-asam")
        self.press("prompt-yes")
        self.finish_step("clinic-chat-lock", rule)

        self.open("/tour")
        self.assertTrue(self.driver.find_element(By.ID, "tour-progress").text.startswith("14 of "))

        # The dashboard tells the same stories, and its health strip reads as a fleet console's.
        self.open("/dashboard")
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".story-tile")), 4)
        self.assertIn("crash group", self.driver.find_element(By.ID, "fleet-health").text)
        self.assert_accessible("dashboard-demo")
        self.driver.set_window_size(820, 1180)
        self.screenshot("dashboard-demo-tablet")


if __name__ == "__main__":
    unittest.main()
