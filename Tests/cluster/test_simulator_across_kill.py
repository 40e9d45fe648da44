"""A person's simulator page open through nginx while the instances under it die: the page
keeps following changes. Each instance is killed in turn (so whichever served the page's event
stream is killed once), and each time the next policy change reaches the open page.
"""

import os
import time
import unittest
import uuid

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import cluster
import support
from cluster import TIMEOUT, eventually

harness = support.harness  # the browser tests' Chromium set-up
APP = "com.example.checkin"


class SimulatorAcrossKillTest(cluster.ClusterTestCase):

    def api(self, method, path, body=None, headers=None):
        answer = requests.request(method, self.nginx.url(path), json=body, timeout=TIMEOUT,
                                  headers={"Authorization": f"Bearer {self.token}", **(headers or {})})
        self.assertLess(answer.status_code, 300, support.describe(answer))
        return answer.json() if answer.content else None

    def setUp(self):
        super().setUp()
        self.driver = harness.make_driver()
        self.addCleanup(self.driver.quit)

    def locked(self):
        return bool(self.driver.find_elements(By.ID, "sim-lock"))

    def wait_for(self, condition, timeout):
        WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(lambda driver: condition())

    def test_an_open_simulator_page_follows_changes_while_each_instance_in_turn_is_killed(self):
        self.api("POST", "/api/v1/apps", {"name": "Check-in", "bundleID": APP, "isSDKBuilt": True})
        group = self.api("POST", "/api/v1/groups", {"name": f"Lobby {uuid.uuid4().hex[:6]}"})["id"]
        device = self.api("POST", "/api/v1/devices", {
            "name": "Lobby iPad", "model": "iPad", "osVersion": "18.1", "serialNumber": f"DMP{uuid.uuid4().hex[:7].upper()}",
            "udid": f"00008101-{uuid.uuid4().hex[:16].upper()}", "isSupervised": True, "groupID": group, "installedApps": [APP]})["id"]
        profile = self.api("POST", "/api/v1/profiles", {"name": "Lobby lock", "payloads": []})

        self.driver.get(self.nginx.url("/sign-in"))
        self.driver.find_element(By.ID, "email").send_keys(cluster.ADMIN)
        self.driver.find_element(By.ID, "password").send_keys(cluster.PASSWORD)
        self.driver.find_element(By.ID, "sign-in").click()
        self.wait_for(lambda: "/sign-in" not in self.driver.current_url, 15)
        self.driver.get(self.nginx.url(f"/simulator/{device}"))
        self.wait_for(lambda: "Live" in self.driver.find_element(By.ID, "live-status").text, 15)
        self.assertFalse(self.locked())
        self.api("POST", f"/api/v1/profiles/{profile['id']}/assignments", {"groupID": group})

        version = profile["version"]
        for victim, survivor in ((0, 1), (1, 0)):
            killed, serving = self.cluster.instances[victim], self.cluster.instances[survivor]
            killed.kill()
            # The next change, made through the survivor, reaches the page that was open.
            lock = not self.locked()
            payloads = [{"PayloadType": "com.apple.app.lock", "App": {"Identifier": APP}}] if lock else []
            changed = requests.put(serving.url(f"/api/v1/profiles/{profile['id']}"), timeout=TIMEOUT,
                                   json={"name": "Lobby lock", "payloads": payloads},
                                   headers={"Authorization": f"Bearer {self.token}", "If-Match": str(version)})
            self.assertEqual(changed.status_code, 200, support.describe(changed))
            version += 1
            # A killed stream's browser reconnects after a second and nginx passes it on.
            self.wait_for(lambda: self.locked() == lock, 15)
            self.driver.save_screenshot(os.path.join(harness.SCREENSHOTS, f"cluster-simulator-after-killing-{killed.name}.png"))
            killed.start()
            self.assertTrue(eventually(lambda: killed.readyz() == 200), self.cluster.logs())


if __name__ == "__main__":
    unittest.main()
