"""The lists people work in all day, on a `--demo` start, at a laptop's 1280×800, a wide
screen's 1920×1080 and an iPad's 820×1180: the device list shows fifteen devices or more above
the fold on a laptop, one line each, and the log viewer fifteen lines; neither cuts a column off
at iPad width (it leaves out the columns it can spare instead); their column headings stay in
view while the list scrolls; the filters the list folds away open by themselves when one is on;
the pages widen with a wide window, and a device's page there sets its logs beside the device.
Every state is photographed and passes axe-core."""

import os
import sqlite3

from selenium.webdriver.common.by import By

from harness import SCREENSHOTS, BrowserTestCase, ConsoleServer, make_driver

LAPTOP, WIDE, TABLET = (1280, 800), (1920, 1080), (820, 1180)

# Rows wholly inside the viewport, how wide the list's box is against what it holds, and
# whether every visible row is one line of text.
MEASURE = """
const table = document.querySelector(arguments[0]);
const wrap = table.closest('.table-wrap');
const rows = [...table.tBodies[0].rows].filter(row => row.offsetParent !== null);
const inView = rows.filter(row => row.getBoundingClientRect().bottom <= window.innerHeight).length;
const oneLine = rows.every(row => row.getBoundingClientRect().height < 40);
return {inView, oneLine, clientWidth: wrap.clientWidth, scrollWidth: wrap.scrollWidth,
        mainWidth: document.querySelector('main').getBoundingClientRect().width};
"""


class DensityTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ConsoleServer(demo=True)
        cls.server.add_user("hal@test.example", "helpdesk")
        cls.server.start()
        os.makedirs(SCREENSHOTS, exist_ok=True)

    def at(self, size, path):
        self.driver.set_window_size(*size)
        self.open(path)
        return self.driver.execute_script(MEASURE, self.table)

    def check_list(self, path, table, name, at_least):
        self.signed_in("hal@test.example")
        self.table = table
        laptop = self.at(LAPTOP, path)
        self.screenshot(f"density-{name}-laptop")
        self.assertGreaterEqual(laptop["inView"], at_least, f"{name}: rows above the fold at 1280×800")
        self.assertTrue(laptop["oneLine"], f"{name}: a row wraps at 1280×800")
        self.assertLessEqual(laptop["scrollWidth"], laptop["clientWidth"], f"{name}: cut off at 1280×800")
        self.assert_accessible(f"density-{name}-laptop")

        # The column headings stay at the top of the window once the list scrolls under them.
        self.driver.execute_script("window.scrollTo(0, 900)")
        heading_top = self.driver.execute_script(f"return document.querySelector('{table} thead th').getBoundingClientRect().top")
        self.assertAlmostEqual(heading_top, 0, delta=1, msg=f"{name}: the headings scrolled away")
        self.screenshot(f"density-{name}-laptop-scrolled")

        wide = self.at(WIDE, path)
        self.screenshot(f"density-{name}-wide")
        self.assertGreater(wide["mainWidth"], 1500, f"{name}: the page keeps a narrow column on a wide screen")
        self.assertTrue(wide["oneLine"], f"{name}: a row wraps at 1920×1080")

        tablet = self.at(TABLET, path)
        self.screenshot(f"density-{name}-tablet")
        self.assertLessEqual(tablet["scrollWidth"], tablet["clientWidth"], f"{name}: columns cut off at iPad width")
        self.assertGreaterEqual(tablet["inView"], at_least, f"{name}: rows above the fold on an iPad")
        self.assert_accessible(f"density-{name}-tablet")

    def test_the_device_list_shows_fifteen_devices_on_a_laptop_and_cuts_nothing_off_on_an_ipad(self):
        # The longest cells a fleet has: a device in its app's own lock and one in Guided Access.
        self.create_api_token("density")
        udids = dict(sqlite3.connect(self.server.database).execute("SELECT name, udid FROM devices"))
        def act(device, **fields):
            self.api("POST", f"/api/v1/simulator/{udids[device]}/actions", fields)
        act("Clinic iPad 01", action="launchApp", app="com.example.clinicnotes")
        act("Clinic iPad 01", action="signIn", app="com.example.clinicnotes")
        act("Clinic iPad 01", action="requestLock", app="com.example.clinicnotes", mode="autonomous", confirm=True)
        act("Sales iPhone 02", action="launchApp", app="com.example.mail")
        act("Sales iPhone 02", action="startGuidedAccess", passcode="4711")
        self.check_list("/devices", "#device-table", "devices", 15)

    def test_the_log_viewer_shows_fifteen_lines_on_a_laptop(self):
        self.check_list("/logs", "#log-table", "logs", 15)

    def test_times_are_written_one_way_on_every_page(self):
        """Day, month and 24-hour clock in the reader's zone everywhere; "2 hours ago" beside
        it where the page said so, or (in a list's narrow cell) with the exact time on hover;
        log lines with their seconds."""
        import re
        exact = r"\d{1,2} [A-Z][a-z]{2}( \d{4})?, \d{2}:\d{2}"
        self.signed_in("hal@test.example")
        self.open("/devices")
        cell = self.driver.find_element(By.CSS_SELECTOR, "#device-table time")
        self.assertRegex(cell.text, r"ago$|^just now$")
        self.assertRegex(cell.get_attribute("title"), "^" + exact + r" \(.* UTC\)$")
        self.open("/logs")
        self.assertRegex(self.driver.find_element(By.CSS_SELECTOR, "#log-table time").text, "^" + exact + r":\d{2}$")
        self.open("/dashboard")
        feed = [time.text for time in self.driver.find_elements(By.CSS_SELECTOR, "main time")]
        self.assertTrue(feed and all(re.match("^" + exact + r" \((just now|\d+ \w+ ago)\)$", text) for text in feed), feed)
        self.open("/devices?q=Sales+iPhone+03")
        self.click_and_wait(By.ID, "open-only-match")
        self.assertRegex(self.driver.find_element(By.CSS_SELECTOR, "#check-in time").text, "^" + exact + r" \(.*\)$")
        self.assertNotRegex(self.driver.page_source, r"\d{1,2}:\d{2}(:\d{2})? [AP]M", "no 12-hour clock anywhere")

    def test_a_folded_filter_in_force_is_in_sight(self):
        self.signed_in("hal@test.example")
        self.open("/devices")
        more = self.driver.find_element(By.ID, "more-filters")
        self.assertIsNone(more.get_attribute("open"), "nothing folded is on, so the fold is closed")
        self.assertFalse(self.driver.find_element(By.ID, "filter-model").is_displayed())
        self.open("/devices?model=iPhone&waiting=yes")
        more = self.driver.find_element(By.ID, "more-filters")
        self.assertIsNotNone(more.get_attribute("open"))
        self.assertIn("2 on", more.find_element(By.TAG_NAME, "summary").text)
        self.assertTrue(self.driver.find_element(By.ID, "filter-model").is_displayed())
        self.screenshot("density-devices-folded-filters-on")
        self.assert_accessible("density-devices-folded-filters-on")

        self.open("/logs?type=crash")
        self.assertIsNotNone(self.driver.find_element(By.ID, "more-log-filters").get_attribute("open"))
        self.assertTrue(self.driver.find_element(By.ID, "log-kind").is_displayed())

    def test_a_device_page_on_a_wide_screen_sets_its_logs_beside_the_device(self):
        self.signed_in("hal@test.example")
        self.driver.set_window_size(*WIDE)
        self.open("/devices?q=Sales+iPhone+01")
        self.click_and_wait(By.ID, "open-only-match")
        device = self.driver.find_element(By.CSS_SELECTOR, ".device-page > section.card").rect
        logs = self.driver.find_element(By.ID, "recent-logs").rect
        self.assertGreater(logs["x"], device["x"] + device["width"] - 1, "the logs sit to the right of the device")
        self.assertAlmostEqual(logs["y"], device["y"], delta=2)
        self.screenshot("density-device-wide")
        self.assert_accessible("density-device-wide")
        self.driver.set_window_size(*LAPTOP)
        logs = self.driver.find_element(By.ID, "recent-logs").rect
        device = self.driver.find_element(By.CSS_SELECTOR, ".device-page > section.card").rect
        self.assertGreater(logs["y"], device["y"] + device["height"] - 1, "one column on a laptop")


class GeofenceQuestionTests(BrowserTestCase):
    """Helpdesk's "am I outside the geofence?" on the demo's complaining sales iPhone: its log
    line says how far outside it was, and a place typed on its page is checked against its areas."""

    @classmethod
    def setUpClass(cls):
        cls.server = ConsoleServer(demo=True)
        cls.server.add_user("hal@test.example", "helpdesk")
        cls.server.start()
        os.makedirs(SCREENSHOTS, exist_ok=True)

    def test_helpdesk_reads_the_distance_on_the_log_line_and_checks_a_place(self):
        self.signed_in("hal@test.example")
        self.open("/logs?app=com.example.fieldsales&q=geofence")
        note = self.driver.find_element(By.CSS_SELECTOR, "#log-table .geo-note")
        self.assertEqual(note.text, "Geofence: outside, 134 m beyond North depot's edge")
        self.open("/devices?q=Sales+iPhone+03")
        self.click_and_wait(By.ID, "open-only-match")
        check = self.driver.find_element(By.ID, "geofence-check")
        self.assertIn("puts it at 53.4662, -2.2398", check.text)
        self.assertIn("Outside every area: North depot's edge is 134 m away", check.text)
        self.fill("geo-latitude", "53.4808")
        self.fill("geo-longitude", "-2.2426")
        self.click_and_wait(By.ID, "geo-check")
        self.assertEqual(self.driver.find_element(By.ID, "geo-answer").text, "Inside North depot, 1.5 km from its edge.")
        self.screenshot("geofence-question-answered")
        self.assert_accessible("geofence-question-answered")
        self.fill("geo-latitude", "north")
        self.click_and_wait(By.ID, "geo-check")
        self.assertIn("Type the latitude in decimal degrees", self.driver.find_element(By.ID, "geo-latitude-error").text)
        self.assertEqual(self.driver.find_element(By.ID, "geo-latitude").get_attribute("value"), "north", "the value typed stays")
        self.screenshot("geofence-question-refused")
        self.assert_accessible("geofence-question-refused")
        for size, name in [(TABLET, "tablet"), (WIDE, "wide")]:
            self.driver.set_window_size(*size)
            self.driver.execute_script("document.getElementById('geofence-check').scrollIntoView()")
            self.screenshot(f"geofence-question-{name}")
            self.assert_accessible(f"geofence-question-{name}")


if __name__ == "__main__":
    import unittest
    unittest.main()
