"""axe-core over the console's pages, including the states a refused form leaves them in:
every page must pass WCAG 2 A and AA as the bundled axe-core checks it."""

from selenium.webdriver.common.by import By

from harness import BrowserTestCase


class AccessibilityTests(BrowserTestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("accessibility")
        cls.api("POST", "/api/v1/apps", {"name": "Check-in", "bundleID": "com.example.checkin", "isSDKBuilt": True})
        cls.group = cls.api("POST", "/api/v1/groups", {"name": "Lobby kiosks"})["id"]
        cls.device = cls.api("POST", "/api/v1/devices", {
            "name": "Lobby 1", "model": "iPad", "osVersion": "18.1", "serialNumber": "DMPXK2ABCD",
            "udid": "00008101-000A1B2C3D4E5F60", "isSupervised": True, "groupID": cls.group,
            "installedApps": ["com.example.checkin"]})["id"]
        cls.profile = cls.api("POST", "/api/v1/profiles", {"name": "Lobby lock", "payloads": [
            {"PayloadType": "com.apple.app.lock", "App": {"Identifier": "com.example.checkin"}}]})["id"]

    def test_the_pages_people_work_in(self):
        self.open("/sign-in")
        self.assert_accessible("sign-in")
        self.signed_in("admin@test.example")
        pages = ["/dashboard", "/devices", f"/devices/{self.device}", "/groups", f"/groups/{self.group}/edit", "/apps",
                 "/profiles", f"/profiles/{self.profile}", f"/profiles/{self.profile}/history", "/logs", "/audit",
                 "/users", "/tokens", "/signing", f"/simulator/{self.device}", "/simulator/new", f"/groups/{self.group}",
                 f"/profiles/{self.profile}/assignments/preview?groupID={self.group}", "/audit?type=device",
                 "/logs/crashes", "/settings", "/devices?q=lobby&sort=-checkin", "/logs/delete", "/help", "/help?q=retention",
                 "/help/roles", "/help/logs-and-feedback", "/help/payloads/dlp", "/tour",
                 f"/devices/{self.device}/feedback?app=com.example.checkin"]
        # Every payload kind's form, as the profile page lists the kinds (one item per kind).
        self.open(f"/profiles/{self.profile}")
        kinds = [item.get_attribute("id").removeprefix("payload-") for item in self.driver.find_elements(By.CSS_SELECTOR, "li.payload")]
        self.assertTrue(kinds, "the profile page lists no payload kinds")
        pages += [f"/profiles/{self.profile}/payloads/{kind}" for kind in kinds]
        for path in pages:
            with self.subTest(path=path):
                self.open(path)
                self.assert_accessible(path.strip("/").replace("/", "-"))

    def test_forms_refused_with_a_message_beside_the_field(self):
        self.signed_in("admin@test.example")
        # A command with a bad capture time, from the device page.
        self.open(f"/devices/{self.device}")
        self.driver.find_element(By.ID, "command-type").send_keys("Request logs")
        self.driver.execute_script("document.getElementById('command-capture').removeAttribute('max')")
        self.driver.find_element(By.ID, "command-capture").send_keys("5000")
        self.click_and_wait(By.ID, "queue-command")
        # The refused field has the focus, so the page opens where the problem is.
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "command-capture")
        self.assertTrue(self.driver.find_elements(By.ID, "command-capture-error"))
        self.assert_accessible("device-command-refused")
        # A simulator control with a value out of range.
        self.open(f"/simulator/{self.device}")
        self.driver.execute_script("document.getElementById('advance-minutes').removeAttribute('max')")
        minutes = self.driver.find_element(By.ID, "advance-minutes")
        minutes.clear()
        minutes.send_keys("99999")
        self.click_and_wait(By.ID, "advance-clock")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "advance-minutes")
        self.assertTrue(self.driver.find_elements(By.ID, "advance-minutes-error"))
        self.assert_accessible("simulator-control-refused")

    def test_the_bar_fits_one_line_on_a_laptop_and_a_tablet(self):
        self.signed_in("admin@test.example")
        for width in [1280, 1024, 820, 768]:
            with self.subTest(width=width):
                self.driver.set_window_size(width, 900)
                self.open("/users")
                height = self.driver.execute_script("return document.querySelector('.top-bar').getBoundingClientRect().height")
                self.assertLess(height, 60, f"the admin's bar wraps at {width} px")
                self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, ".nav a[aria-current=page]").text, "Settings")
        self.driver.set_window_size(1280, 900)

    def test_dark_mode_follows_the_system_and_stays_readable(self):
        self.signed_in("admin@test.example")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        try:
            for path in ["/dashboard", "/devices", f"/devices/{self.device}", f"/simulator/{self.device}", "/logs", "/settings",
                         f"/profiles/{self.profile}/payloads/branding"]:
                with self.subTest(path=path):
                    self.open(path)
                    background = self.driver.execute_script("return getComputedStyle(document.documentElement).backgroundColor")
                    self.assertEqual(background, "rgb(16, 22, 29)", "the page follows the system's dark scheme")
                    self.assert_accessible("dark-" + path.strip("/").replace("/", "-"))
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_a_refused_save_leads_with_a_summary_linking_to_every_field(self):
        self.signed_in("admin@test.example")
        self.open(f"/profiles/{self.profile}/payloads/geofence")
        for field, value in [("area-0-name", "Head office"), ("area-0-latitude", "91"), ("area-0-longitude", "east"), ("area-0-radius", "10")]:
            box = self.driver.find_element(By.ID, field)
            box.clear()
            box.send_keys(value)
        self.click_and_wait(By.ID, "save-payload")
        # The focus is on the summary, which names every problem at once.
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "form-errors")
        links = self.driver.find_elements(By.CSS_SELECTOR, "#form-errors .error-summary a")
        self.assertEqual([link.get_attribute("href").split("#")[1] for link in links],
                         ["area-0-latitude", "area-0-longitude", "area-0-radius"])
        self.assertIn("Latitude", links[0].text)
        self.assert_accessible("geofence-refused-summary")
        links[1].click()
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "area-0-longitude")

        # A form of one or two fields gets no list: the focus goes to the refused field.
        self.open(f"/groups/{self.group}/edit")
        self.driver.find_element(By.ID, "group-name").clear()
        self.click_and_wait(By.CSS_SELECTOR, f"form[action='/groups/{self.group}'] button[type=submit]")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "group-name")

        # Forms without a summary of their own get one: the settings.
        self.open("/settings")
        cap = self.driver.find_element(By.ID, "log-cap")
        cap.clear()
        cap.send_keys("lots")
        self.click_and_wait(By.ID, "save-settings")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "form-errors")
        self.assertIn("Storage per app (MB)", self.driver.find_element(By.ID, "form-errors").text)
        self.assertIn("Nothing was saved.", self.driver.find_element(By.ID, "form-errors").text)
        self.assert_accessible("settings-refused-summary")

        # A search saves nothing, so its summary does not say that nothing was saved.
        self.open('/logs?q=%22unclosed')
        summary = self.driver.find_element(By.ID, "form-errors").text
        self.assertIn("Search messages: A quote is not closed", summary)
        self.assertNotIn("saved", summary)
