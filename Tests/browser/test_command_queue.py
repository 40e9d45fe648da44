"""The command queue on a device page, as helpdesk and admins use it: queue, take one back,
empty the queue — keyboard-reachable, announced, and accessible."""
import unittest

from selenium.webdriver.common.by import By

from harness import BrowserTestCase


class CommandQueueTest(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.create_api_token("command-queue")

    def queue(self, device, request_type):
        self.open(f"/devices/{device}")
        select = self.driver.find_element(By.ID, "command-type")
        select.find_element(By.CSS_SELECTOR, f"option[value='{request_type}']").click()
        self.click_and_wait(By.ID, "queue-command")

    def row_status(self, device, uuid=None):
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#command-rows tr")
        return [row.find_element(By.CSS_SELECTOR, "[data-status]").text for row in rows]

    def test_helpdesk_takes_back_a_waiting_command_and_an_admin_empties_the_queue(self):
        _, device = self.device_in_new_group("Queue iPad", "com.example.notes", group="Queue")
        self.signed_in("helpdesk@test.example")
        self.queue(device, "RestartDevice")
        self.queue(device, "RequestLogs")
        self.assertEqual(self.row_status(device), ["Queued", "Queued"])
        self.assertEqual(self.driver.find_elements(By.ID, "clear-commands"), [], "emptying the queue is an admin's")
        cancel = self.driver.find_elements(By.CSS_SELECTOR, "#command-rows [data-actions] button")
        self.assertEqual([button.get_attribute("aria-label") for button in cancel],
                         ["Cancel Send available logs", "Cancel Restart"])
        self.driver.find_element(By.CSS_SELECTOR, "#command-rows [data-actions] button").send_keys("")  # focus, for the picture
        self.assert_accessible("devices-command-queue")
        self.click_and_wait(By.CSS_SELECTOR, "#command-rows tr:first-child [data-actions] button")
        self.assertIn("Cancelled: Send available logs.", self.driver.find_element(By.CSS_SELECTOR, ".flash").text)
        self.assertEqual(self.row_status(device), ["Cancelled", "Queued"])
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#command-rows [data-actions] button")), 1,
                         "a cancelled command has nothing left to take back")

        self.driver.delete_all_cookies()
        self.signed_in("admin@test.example")
        self.open(f"/devices/{device}")
        self.driver.execute_script("document.getElementById('commands').scrollIntoView()")
        self.screenshot("devices-command-queue-admin")
        self.click_and_wait(By.ID, "clear-commands")
        self.assertIn("Cancelled 1 waiting command.", self.driver.find_element(By.CSS_SELECTOR, ".flash").text)
        self.assertEqual(self.row_status(device), ["Cancelled", "Cancelled"])
        self.assertEqual(self.driver.find_elements(By.ID, "clear-commands"), [])


if __name__ == "__main__":
    unittest.main()
