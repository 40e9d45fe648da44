"""First paint of the pages people keep open, on a `--demo` start at 1280×800: the device list,
the log viewer, the audit log, a device's page and its simulator, each loaded six times (the
first discarded), the median first-contentful-paint printed beside the server's time to first
byte and the page's element count, with a plain-text page measured the same way as the anchor.
Printed, not asserted: this machine's speed drifts, so Benchmarks/README.md keeps the figures
beside their anchor."""

import os
import sqlite3
import statistics
import time
import unittest

from harness import SCREENSHOTS, BrowserTestCase, ConsoleServer

MEASURE = """
const paint = performance.getEntriesByName('first-contentful-paint')[0];
const navigation = performance.getEntriesByType('navigation')[0];
return [paint ? paint.startTime : null, navigation.responseStart, document.getElementsByTagName('*').length];
"""


class FirstPaintTests(BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ConsoleServer(demo=True)
        cls.server.add_user("admin@test.example", "admin")
        cls.server.start()
        os.makedirs(SCREENSHOTS, exist_ok=True)

    def measure(self, path, runs=6):
        samples = []
        for _ in range(runs):
            self.driver.get("about:blank")
            self.open(path)
            for _ in range(40):
                if self.driver.execute_script("return performance.getEntriesByName('first-contentful-paint').length"):
                    break
                time.sleep(0.05)
            samples.append(self.driver.execute_script(MEASURE))
        kept = samples[1:]
        self.assertTrue(all(sample[0] is not None for sample in kept), f"{path}: the browser reported no first paint")
        return statistics.median(s[0] for s in kept), statistics.median(s[1] for s in kept), kept[-1][2]

    def test_first_paint_of_the_pages_people_keep_open(self):
        self.driver.set_window_size(1280, 800)
        self.signed_in("admin@test.example")
        device = sqlite3.connect(self.server.database).execute("SELECT id FROM devices WHERE name = 'Sales iPhone 03'").fetchone()[0]
        rows = [("anchor: /healthz (plain text)", *self.measure("/healthz"))]
        for path in ["/devices", "/logs", "/audit", f"/devices/{device}", f"/simulator/{device}"]:
            rows.append((path, *self.measure(path)))
        print("\nfirst paint at 1280×800, median of 5 loads")
        for path, paint, first_byte, elements in rows:
            print(f"  {path:32} first paint {paint:5.0f} ms   first byte {first_byte:4.0f} ms   {elements:4d} elements")


if __name__ == "__main__":
    unittest.main()
