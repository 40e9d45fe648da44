"""The README's pictures, taken from a fresh `--demo` start so they show what a new user sees
and never go stale: the dashboard, the tour, a payload form, the simulator in each way a
device can be locked (and unlocked), the device list, a device's page, a log search and an
impact preview.

Run with `make screenshots` (it builds the console first); writes docs/screenshots/*.png."""

import json
import os
import sqlite3
import subprocess
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from harness import BINARY, ROOT, ConsoleServer, make_driver  # noqa: E402

OUT = os.path.join(ROOT, "docs", "screenshots")


def main():
    os.makedirs(OUT, exist_ok=True)
    server = ConsoleServer(demo=True)
    server.add_user("admin@test.example", "admin")
    server.start()
    try:
        token = next(word for word in subprocess.run(
            [BINARY, "token", "create", "--role", "admin", "--name", "screenshots", "--db", server.database],
            text=True, check=True, capture_output=True).stdout.split() if word.startswith("pct_"))
        database = sqlite3.connect(server.database)
        ids = {name: (device_id, udid) for device_id, name, udid in database.execute("SELECT id, name, udid FROM devices")}
        profiles = dict(database.execute("SELECT identifier, id FROM profiles"))
        groups = dict(database.execute("SELECT name, id FROM device_groups"))

        def act(device, **fields):
            request = urllib.request.Request(
                f"{server.base}/api/v1/simulator/{ids[device][1]}/actions", data=json.dumps(fields).encode(), method="POST",
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            with urllib.request.urlopen(request) as response:
                return json.load(response)

        # One device in each lock: Single App Mode holds the kiosk by itself; the others are asked.
        act("Clinic iPad 01", action="launchApp", app="com.example.clinicnotes")
        act("Clinic iPad 01", action="signIn", app="com.example.clinicnotes")
        act("Clinic iPad 01", action="requestLock", app="com.example.clinicnotes", mode="autonomous", confirm=True)
        act("Student iPad (own)", action="launchApp", app="com.example.exam")
        act("Student iPad (own)", action="requestLock", app="com.example.exam", mode="assessment", confirm=True)
        act("Sales iPhone 02", action="launchApp", app="com.example.mail")
        act("Sales iPhone 02", action="startGuidedAccess", passcode="4711")
        act("Sales iPhone 01", action="setLocation", latitude=51.5072, longitude=-0.1276)
        act("Sales iPhone 01", action="launchApp", app="com.example.fieldsales")

        driver = make_driver(1280, 900)
        driver.get(server.base + "/healthz")
        driver.add_cookie({"name": "pc_session", "value": server.session_for("admin@test.example"), "path": "/"})
        shots = [
            ("dashboard", "/dashboard"),
            ("tour", "/tour"),
            ("payload-form", f"/profiles/{profiles['com.example.profiles.lobby-kiosk']}/payloads/single-app-mode"),
            ("simulator-single-app-mode", f"/simulator/{ids['Lobby kiosk 01'][0]}"),
            ("simulator-asam", f"/simulator/{ids['Clinic iPad 01'][0]}"),
            ("simulator-assessment", f"/simulator/{ids['Student iPad (own)'][0]}"),
            ("simulator-guided-access", f"/simulator/{ids['Sales iPhone 02'][0]}"),
            ("simulator-unlocked", f"/simulator/{ids['Sales iPhone 01'][0]}"),
            ("device-list", "/devices"),
            ("device-page", f"/devices/{ids['Sales iPhone 03'][0]}"),
            ("log-search", "/logs?app=com.example.fieldsales&q=geofence"),
            ("impact-preview", f"/profiles/{profiles['com.example.profiles.lobby-kiosk']}/assignments/{groups['Lobby kiosks']}/remove"),
        ]
        for name, path in shots:
            driver.set_window_size(1280, 900)
            driver.get(server.base + path)
            height = driver.execute_script("return Math.min(document.body.scrollHeight, 1800)")
            driver.set_window_size(1280, height + 120)
            driver.save_screenshot(os.path.join(OUT, name + ".png"))
            print(f"docs/screenshots/{name}.png  {path}")
        driver.quit()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
