"""Starts the console binary that `swift test` built on a free port with a temporary
database, and drives headless Chromium against it."""

import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.parse
import urllib.request
import uuid

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.path.join(ROOT, ".build", "debug", "payload-console")
SCREENSHOTS = os.path.join(ROOT, ".build", "screenshots")
PASSWORD = "browser test passphrase"

# Only the violations come back, summarised: axe's full results (every pass, with its DOM
# nodes) take longer to hand over than the check takes to run.
RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa"]}})
  .then(results => done(results.violations.map(v => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", ")}`)))
  .catch(error => done([`axe failed: ${error}`]));
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ConsoleServer:
    """One console process with its own database and data folder."""

    def __init__(self, demo=False):
        self.demo = demo
        self.folder = tempfile.mkdtemp(prefix="payload-console-browser-")
        self.database = os.path.join(self.folder, "console.sqlite")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None
        # Options a suite adds to `serve` (the MDM tests' push service stand-in).
        self.extra_arguments = []

    def add_user(self, email, role, password=PASSWORD):
        subprocess.run(
            [BINARY, "user", "add", "--email", email, "--role", role, "--db", self.database],
            input=password + "\n", text=True, check=True, capture_output=True)

    def start(self):
        self.log = open(os.path.join(self.folder, "server.log"), "w")
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", str(self.port), "--db", self.database,
             "--data-dir", self.folder, "--templates", os.path.join(ROOT, "Templates"),
             "--public", os.path.join(ROOT, "Public"), "--log-level", "warning"] + (["--demo"] if self.demo else []) + self.extra_arguments,
            stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the console did not start:\n" + open(self.log.name).read())

    def session_for(self, email, password=PASSWORD):
        """Signs in through the real form over HTTP and answers the session cookie's value."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", "/sign-in")
        response = connection.getresponse()
        page = response.read().decode()
        csrf_cookie = re.search(r"pc_csrf=([^;]+)", response.getheader("Set-Cookie") or "").group(1)
        csrf = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"_csrf": csrf, "email": email, "password": password, "next": "/dashboard"})
        connection.request("POST", "/sign-in", body=body, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"pc_csrf={csrf_cookie}"})
        response = connection.getresponse()
        response.read()
        cookies = " ".join(value for name, value in response.getheaders() if name.lower() == "set-cookie")
        session = re.search(r"pc_session=([^;]+)", cookies)
        connection.close()
        if response.status != 303 or not session:
            raise AssertionError(f"signing in {email} failed: {response.status}")
        return session.group(1)

    def stop(self):
        if self.process:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def make_driver(width=1280, height=900):
    options = webdriver.ChromeOptions()
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument(f"--window-size={width},{height}")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        options.binary_location = chromium
    driver_path = shutil.which("chromedriver") or "/usr/lib/chromium/chromedriver"
    return webdriver.Chrome(service=Service(driver_path), options=options)


class BrowserTestCase(unittest.TestCase):
    """A console with an admin, a helpdesk and a viewer account, and a browser per test."""

    @classmethod
    def setUpClass(cls):
        cls.server = ConsoleServer()
        cls.server.add_user("admin@test.example", "admin")
        cls.server.add_user("helpdesk@test.example", "helpdesk")
        cls.server.add_user("viewer@test.example", "viewer")
        cls.server.start()
        os.makedirs(SCREENSHOTS, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def setUp(self):
        self.driver = make_driver()
        self.driver.implicitly_wait(2)

    def tearDown(self):
        self.driver.quit()

    def open(self, path):
        self.driver.get(self.server.base + path)

    def screenshot(self, name):
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, name + ".png"))

    def click_and_wait(self, by, value):
        """Clicks something that loads a new page — or, in the simulator, swaps the page's
        content in place — and waits until it is there, so the next lookup cannot find an
        element of the page being left."""
        self.driver.execute_script("window.__leaving = true; document.querySelector('main')?.setAttribute('data-leaving', '')")
        self.driver.find_element(by, value).click()
        self.wait_for_new_page()

    def wait_for_new_page(self):
        """A new page has a new window object, so the mark set on the old one is gone; content
        swapped in place comes in a new <main>, without the mark set on the old one. Checking
        that (rather than staleness of an old element) never races the browser's own cleanup."""
        def arrived(driver):
            try:
                return driver.execute_script(
                    "return (window.__leaving === undefined || !document.querySelector('main[data-leaving]'))"
                    " && document.readyState === 'complete'")
            except WebDriverException:
                return False
        WebDriverWait(self.driver, 15).until(arrived)

    @classmethod
    def create_api_token(cls, name):
        """An admin API token from the command line, for fixtures set up over the API."""
        created = subprocess.run(
            [BINARY, "token", "create", "--role", "admin", "--name", name, "--db", cls.server.database],
            text=True, check=True, capture_output=True).stdout
        cls.token = next(word for word in created.split() if word.startswith("pct_"))

    @classmethod
    def api(cls, method, path, body=None, headers=None):
        """A JSON API call with the class's token; the answer's JSON, or None when empty."""
        request = urllib.request.Request(
            cls.server.base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
            headers={"Authorization": f"Bearer {cls.token}", "Content-Type": "application/json", **(headers or {})})
        with urllib.request.urlopen(request) as response:
            text = response.read()
            return json.loads(text) if text else None

    @classmethod
    def device_in_new_group(cls, name, app, group="Group", model="iPad"):
        """A supervised device with `app` installed, alone in a new group (its name made
        unique from `group`): answers the group's and the device's ids."""
        group_id = cls.api("POST", "/api/v1/groups", {"name": f"{group} {uuid.uuid4().hex[:6]}"})["id"]
        device = cls.api("POST", "/api/v1/devices", {
            "name": name, "model": model, "osVersion": "18.1", "serialNumber": f"DMP{uuid.uuid4().hex[:7].upper()}",
            "udid": f"00008101-{uuid.uuid4().hex[:16].upper()}", "isSupervised": True, "groupID": group_id, "installedApps": [app]})["id"]
        return group_id, device

    def signed_in(self, email, password=PASSWORD):
        """Starts the browser signed in as `email`, the form filled in over HTTP: for tests of
        something other than signing in (test_sign_in.py drives the form itself)."""
        session = self.server.session_for(email, password)
        self.open("/healthz")
        self.driver.add_cookie({"name": "pc_session", "value": session, "path": "/", "httpOnly": True})

    def sign_in(self, email, password=PASSWORD):
        self.open("/sign-in")
        self.driver.find_element(By.ID, "email").send_keys(email)
        self.driver.find_element(By.ID, "password").send_keys(password)
        self.click_and_wait(By.ID, "sign-in")

    def assert_accessible(self, name):
        """A screenshot of the page as it is, then axe-core's WCAG 2 A and AA checks over it."""
        # The picture first, at the focused field: axe scrolls the page as it checks contrast.
        self.driver.execute_script("document.activeElement && document.activeElement.scrollIntoView({block: 'center'})")
        self.screenshot("a11y-" + name)
        Axe(self.driver).inject()
        violations = self.driver.execute_async_script(RUN_AXE)
        self.assertEqual(violations, [], f"{name}: " + "; ".join(violations))

    def fill(self, element_id, text):
        box = self.driver.find_element(By.ID, element_id)
        box.clear()
        box.send_keys(text)

    def heading(self):
        """The page's h1. Read again if the page replaced it meanwhile (a loaded machine once
        finished a redirect between finding the heading and reading its text)."""
        for _ in range(5):
            try:
                return self.driver.find_element(By.TAG_NAME, "h1").text
            except StaleElementReferenceException:
                time.sleep(0.2)
        return self.driver.find_element(By.TAG_NAME, "h1").text
