"""Certificate pinning as an admin sets it up and a field device meets it: the server's
certificate uploaded and read on the form (a bad host refused beside its field while the
certificate stays), then the simulated app connects with the pinned certificate and is refused
with an inspecting proxy's. And the device itself under Single App Mode: touch and volume
switched off, VoiceOver forced on, Zoom left to the user, shown on the frame."""

import os

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from harness import BrowserTestCase

SALES = "com.example.fieldsales"
CERTIFICATE = os.path.join(os.path.dirname(__file__), "fixtures", "api.northwind.example.pem")


class PinningAndDeviceTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("pinning")
        cls.api("POST", "/api/v1/apps", {"name": "Field Sales", "bundleID": SALES, "isSDKBuilt": True})

    def latest_event(self):
        return self.driver.find_element(By.CSS_SELECTOR, "#timeline .event").text

    def test_a_pinned_host_connects_only_with_the_pinned_certificate(self):
        group, device = self.device_in_new_group("Sales iPhone 1", SALES, group="Sales", model="iPhone")
        profile = self.api("POST", "/api/v1/profiles", {"name": "Sales pinning", "payloads": []})["id"]
        self.signed_in("admin@test.example")

        self.open(f"/profiles/{profile}/payloads/certificate-pinning")
        self.fill("pinning-hosts", "api.northwind.example\nnot a host!")
        self.driver.find_element(By.ID, "pinning-upload").send_keys(CERTIFICATE)
        self.click_and_wait(By.ID, "save-payload")
        self.assertIn("dot-separated", self.driver.find_element(By.ID, "pinning-hosts-error").text)
        details = self.driver.find_element(By.ID, "pinning-certificates").text
        self.assertIn("CN=api.northwind.example", details)
        self.assertIn("VypSEiTGNN+o2RTrcTHOlzLQrA2VgWVmQ4Xglo6DM3k=", details)
        self.assert_accessible("pinning-refused")
        self.fill("pinning-hosts", "api.northwind.example")
        self.click_and_wait(By.ID, "save-payload")
        self.assertIn("1 certificate pinned for api.northwind.example", self.driver.find_element(By.TAG_NAME, "main").text)

        self.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        self.open(f"/simulator/{device}")
        self.click_and_wait(By.CSS_SELECTOR, f"button[data-app='{SALES}']")
        self.fill("connect-url", "https://api.northwind.example/orders")
        Select(self.driver.find_element(By.ID, "connect-certificate")).select_by_visible_text("Pinned: O=Northwind Traders,CN=api.northwind.example")
        self.click_and_wait(By.ID, "connect-button")
        self.assertIn("matches the pinned certificate", self.latest_event())
        Select(self.driver.find_element(By.ID, "connect-certificate")).select_by_visible_text("An inspecting proxy's certificate")
        self.click_and_wait(By.ID, "connect-button")
        self.assertIn("blocked", self.latest_event())
        self.assertIn("not pinned for api.northwind.example", self.latest_event())
        # A typing slip is refused beside its box, with what was typed kept.
        self.fill("connect-url", "https://api.northwind .example")
        self.click_and_wait(By.ID, "connect-button")
        self.assertIn("no spaces", self.driver.find_element(By.ID, "connect-url-error").text)
        self.assertEqual(self.driver.find_element(By.ID, "connect-url").get_attribute("value"), "https://api.northwind .example")
        self.screenshot("simulator-pinning")
        self.assert_accessible("simulator-pinning")

    def test_single_app_mode_options_act_on_the_device(self):
        group, device = self.device_in_new_group("Sales kiosk", SALES, group="Sales", model="iPhone")
        profile = self.api("POST", "/api/v1/profiles", {"name": "Sales kiosk lock", "payloads": [{
            "PayloadType": "com.apple.app.lock",
            "App": {"Identifier": SALES, "Options": {"DisableTouch": True, "DisableVolumeButtons": True, "EnableVoiceOver": True},
                    "UserEnabledOptions": {"Zoom": True}}}]})["id"]
        self.api("POST", f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
        self.signed_in("admin@test.example")
        self.open(f"/simulator/{device}")
        indicators = self.driver.find_element(By.ID, "sim-indicators").text
        for shown in ["Touch off", "Volume buttons off", "VoiceOver on"]:
            self.assertIn(shown, indicators)

        self.click_and_wait(By.ID, "hardware-tap")
        self.assertIn("does not respond to touch", self.latest_event())
        self.click_and_wait(By.ID, "hardware-volumeUp")
        self.assertIn("Disable volume buttons", self.latest_event())
        self.click_and_wait(By.ID, "hardware-rotate")
        self.assertIn("landscape", self.latest_event())

        self.assertIn("turned on by Single App Mode", self.driver.find_element(By.ID, "accessibility-voiceOver").text)
        self.click_and_wait(By.ID, "accessibility-zoom")
        self.assertEqual(self.driver.find_element(By.ID, "accessibility-zoom").get_attribute("aria-pressed"), "true")
        self.assertIn("Zoom on", self.driver.find_element(By.ID, "sim-indicators").text)
        self.click_and_wait(By.ID, "accessibility-monoAudio")
        self.assertIn("cannot be changed", self.latest_event())
        self.screenshot("simulator-single-app-mode-options")
        self.assert_accessible("simulator-single-app-mode-options")
