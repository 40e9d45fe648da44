"""A console whose disk fills up refuses new writes with a clear 507, keeps reading and
checking in, and lets an admin sign in and free room by deleting logs — also on a disk with no
byte left, with its background jobs running, and after `kill -9` on the full disk, when it
must start again.

The console runs on a tmpfs of its own (mounting one needs root, as CI has; elsewhere the test
says why it skipped), seeded with the demo's logs, and then a file takes every free byte. It
runs on a small, a medium and a roomier disk: the room the console sets aside for freeing room
is smaller on a smaller disk, and must still be enough.
"""

import os
import subprocess
import tempfile
import unittest

import support

def mount_small_disk(size):
    folder = tempfile.mkdtemp(prefix="payload-console-full-")
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", folder], capture_output=True, text=True)
    return folder if result.returncode == 0 else None


class DiskFullCases:
    """The cases, for a disk of `DISK`."""

    DISK = None

    def setUp(self):
        self.disk = mount_small_disk(self.DISK)
        if self.disk is None:
            self.skipTest("mounting a small tmpfs needs root and CAP_SYS_ADMIN; run make test as root to check a full disk")
        self.console = support.Console()
        self.console.demo = True
        self.console.folder = self.disk
        self.console.database = os.path.join(self.disk, "console.sqlite")
        self.console.add_user(support.ADMIN, "admin")
        self.token = self.console.create_token("admin", "disk full")
        self.console.start()

    def tearDown(self):
        if self.disk is None:
            return
        self.console.stop()
        subprocess.run(["umount", "--lazy", self.disk], check=False)
        os.rmdir(self.disk)

    def fill_disk(self):
        with open(os.path.join(self.disk, "filler"), "wb") as filler:
            try:
                while True:
                    filler.write(b"\0" * (1 << 20))
                    filler.flush()
            except OSError:
                pass
        self.assertLess(os.statvfs(self.disk).f_bavail, 8, "the disk is not full")

    def test_writes_get_507_reads_go_on_and_deleting_logs_frees_room(self):
        api = support.api_client(self.token)
        admin = support.Admin(self.console)
        _, udid, device_token = support.enroll_device(admin, "Full disk iPad")
        logs_before = api.get(self.console.url("/api/v1/logs?limit=500"), timeout=30).json()["logs"]
        self.assertTrue(logs_before, "the demo has logs to delete")
        self.fill_disk()

        refused = api.post(self.console.url("/api/v1/groups"), json={"name": "No room"}, timeout=30)
        self.assertEqual(refused.status_code, 507, support.describe(refused))
        self.assertEqual(refused.json()["error"]["code"], "storage_full")
        emitted = api.post(self.console.url(f"/api/v1/simulator/{udid}/actions"),
                           json={"action": "emitLog", "app": "com.example.robust", "level": "error", "count": 50}, timeout=30)
        self.assertIn(emitted.status_code, (422, 507), support.describe(emitted))
        page = admin.submit("/groups", [("name", "No room either"), ("parentID", "")])
        self.assertEqual(page.status_code, 507, support.describe(page))
        self.assertIn("disk is full", page.text)

        self.assertEqual(api.get(self.console.url("/api/v1/groups"), timeout=30).status_code, 200)
        self.assertEqual(admin.get("/devices").status_code, 200)
        check_in = support.api_client(device_token).get(self.console.url("/api/v1/device/policy"), timeout=30)
        self.assertEqual(check_in.status_code, 200, support.describe(check_in))

        deleted = api.delete(self.console.url("/api/v1/logs?all=true"), timeout=60)
        self.assertEqual(deleted.status_code, 200, support.describe(deleted))
        self.assertGreaterEqual(deleted.json()["deleted"], len(logs_before))
        self.assertEqual(api.get(self.console.url("/api/v1/logs?limit=5"), timeout=30).json()["logs"], [],
                         "the deletion was acknowledged but the lines are still there")
        self.assertEqual(api.post(self.console.url("/api/v1/groups"), json={"name": "Room again"}, timeout=30).status_code, 201,
                         "the deleted lines' room is used again")
        support.sign_in(self.console, support.ADMIN)

        self.console.process.terminate()
        self.assertEqual(self.console.process.wait(timeout=30), 0, "the console did not stop cleanly on a full disk")
        self.console.restart()
        groups = [group["name"] for group in api.get(self.console.url("/api/v1/groups"), timeout=30).json()["groups"]]
        self.assertIn("Room again", groups)
        self.assertEqual(support.query(support.logs_database(self.console.database), "SELECT count(*) FROM device_logs"), [(0,)])

    def test_killed_on_a_full_disk_it_starts_and_an_admin_signs_in_and_frees_room(self):
        api = support.api_client(self.token)
        admin = support.Admin(self.console)
        _, udid, _ = support.enroll_device(admin, "Killed iPad")
        # The background jobs at work while the disk fills: uploads and their indexing.
        api.post(self.console.url(f"/api/v1/simulator/{udid}/actions"),
                 json={"action": "emitLog", "app": "com.example.robust", "level": "error", "count": 200}, timeout=30)
        self.fill_disk()
        support.sign_in(self.console, support.ADMIN)

        self.console.kill()
        self.console.restart()
        self.assertIsNone(self.console.check_health(), "the console did not start again on the full disk:\n" + self.console.log_tail())
        support.sign_in(self.console, support.ADMIN)
        self.assertEqual(api.get(self.console.url("/api/v1/groups"), timeout=30).status_code, 200)
        deleted = api.delete(self.console.url("/api/v1/logs?all=true"), timeout=60)
        self.assertEqual(deleted.status_code, 200, support.describe(deleted))
        self.assertEqual(api.post(self.console.url("/api/v1/groups"), json={"name": "After the crash"}, timeout=30).status_code, 201)


class SmallDiskFullTest(DiskFullCases, unittest.TestCase):
    DISK = "24m"


class MediumDiskFullTest(DiskFullCases, unittest.TestCase):
    DISK = "64m"


class RoomyDiskFullTest(DiskFullCases, unittest.TestCase):
    DISK = "96m"


if __name__ == "__main__":
    unittest.main()
