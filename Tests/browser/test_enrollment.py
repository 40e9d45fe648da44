"""Settings › Enrollment as an admin uses it: upload the push certificate, be stopped before a
renewal that changes its topic, make an enrollment link for a group and see it once with its
QR code — by keyboard, with every field labelled, and accessible."""
import os
import subprocess
import tempfile
import unittest
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import BrowserTestCase


def push_pem(topic):
    folder = tempfile.mkdtemp(prefix="push-")
    key, certificate = os.path.join(folder, "push.key"), os.path.join(folder, "push.crt")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "20",
                    "-subj", f"/UID={topic}/CN=APSP:{uuid.uuid4()}/C=US"], check=True, capture_output=True)
    path = os.path.join(folder, "push.pem")
    with open(path, "wb") as pem:
        pem.write(open(certificate, "rb").read() + open(key, "rb").read())
    return path


class EnrollmentPageTest(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("enrollment")

    def test_an_admin_uploads_the_push_certificate_and_makes_a_link_for_a_group(self):
        group = self.api("POST", "/api/v1/groups", {"name": f"Front desks {uuid.uuid4().hex[:4]}"})
        self.signed_in("admin@test.example")
        self.open("/enrollment")
        self.assertIn("None yet", self.driver.find_element(By.ID, "push-missing").text)

        # A link before the certificate: refused with the reason, the values kept.
        self.driver.find_element(By.CSS_SELECTOR, f"#enrollment-group option[value='{group['id']}']").click()
        self.click_and_wait(By.ID, "create-enrollment-link")
        self.assertIn("Upload the push certificate first", self.driver.find_element(By.ID, "link-error").text)
        self.assertEqual(self.driver.find_element(By.ID, "enrollment-group").get_attribute("value"), str(group["id"]))

        topic = f"com.apple.mgmt.External.{uuid.uuid4()}"
        self.driver.find_element(By.ID, "push-file").send_keys(push_pem(topic))
        self.click_and_wait(By.ID, "upload-push-certificate")
        self.assertIn(topic, self.driver.find_element(By.ID, "push-topic").text)
        self.assertIn("expires in", self.driver.find_element(By.ID, "push-warning").text, "20 days left: renew it")

        # A certificate for another Apple ID is stopped, and only goes in when confirmed.
        other = f"com.apple.mgmt.External.{uuid.uuid4()}"
        self.driver.find_element(By.ID, "push-file").send_keys(push_pem(other))
        self.click_and_wait(By.ID, "upload-push-certificate")
        self.assertIn("No device is enrolled yet", self.driver.find_element(By.ID, "push-topic-change").text)
        self.assertIn(topic, self.driver.find_element(By.ID, "push-topic").text, "nothing changed")
        self.assert_accessible("enrollment-topic-change")

        self.driver.find_element(By.CSS_SELECTOR, f"#enrollment-group option[value='{group['id']}']").click()
        hours = self.driver.find_element(By.ID, "enrollment-hours")
        hours.clear()
        hours.send_keys("0")
        self.click_and_wait(By.ID, "create-enrollment-link")
        self.assertIn("from 1 to 720", self.driver.find_element(By.ID, "enrollment-hours-error").text)
        hours = self.driver.find_element(By.ID, "enrollment-hours")
        hours.clear()
        hours.send_keys("48")
        self.click_and_wait(By.ID, "create-enrollment-link")
        link = self.driver.find_element(By.ID, "enrollment-url").get_attribute("value")
        self.assertTrue(link.startswith(self.server.base + "/mdm/enroll/"), link)
        self.assertIn(group["name"], self.driver.find_element(By.ID, "new-enrollment-link").text)
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#enrollment-qr svg[role='img']"), "a QR code to scan")
        self.assertIn("Open until", self.driver.find_element(By.CSS_SELECTOR, "table").text)
        self.assert_accessible("enrollment-new-link")
        self.driver.execute_script("document.getElementById('new-enrollment-link').scrollIntoView()")
        self.screenshot("enrollment-link-qr")

        # The link's own page, as the device's owner sees it in Safari.
        self.driver.delete_all_cookies()
        self.driver.get(link)
        self.assertIn(group["name"], self.driver.find_element(By.TAG_NAME, "main").text)
        self.screenshot("enrollment-device-page")

        # The link went to the wrong person: the admin revokes it, and it enrolls no one.
        self.signed_in("admin@test.example")
        self.open("/enrollment")
        self.driver.execute_script("window.__leaving = true")
        self.driver.find_element(By.CSS_SELECTOR, f"button[aria-label^='Revoke the link for {group['name']}']").send_keys(Keys.ENTER)
        self.wait_for_new_page()
        self.assertIn("no longer enrolls a device", self.driver.find_element(By.CSS_SELECTOR, ".flash-notice").text)
        self.assertIn("Revoked", self.driver.find_element(By.CSS_SELECTOR, "table").text)
        self.assert_accessible("enrollment-link-revoked")
        self.driver.delete_all_cookies()
        self.driver.get(link)
        self.assertIn("withdrawn by your admin", self.driver.find_element(By.TAG_NAME, "main").text)


if __name__ == "__main__":
    unittest.main()
