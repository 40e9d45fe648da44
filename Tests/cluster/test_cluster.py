"""Two console instances on one PostgreSQL database behind nginx (round robin), driven through
nginx and, where a test must choose the instance, directly:

- a person signed in through nginx keeps their session, CSRF tokens and flash messages whichever
  instance answers, across several form posts that both instances serve;
- the sign-in throttle counts across instances: a burst of wrong passwords split over A and B
  gets no more tries than one instance allows;
- a logo uploaded through A is served by B;
- /readyz is 200 on both; with PostgreSQL stopped both answer 503 there, pages answer a 503 page
  and the API a 503 `database_unavailable`, nothing crashes; with it started again service
  resumes without restarting either console;
- SIGTERM turns an instance's readiness to 503 at once, it drains and exits cleanly, and nginx
  sends the work to the other; so it does when an instance is killed;
- two instances started at the same moment on an empty database both come up, and the first
  admin, or the demo data, exists once.

Everything runs on a PostgreSQL server, consoles and nginx of this module's own (cluster.py),
removed at the end also when a test fails.
"""

import re
import threading
import time
import unittest

import requests

import cluster
import support

# SignInThrottle.freeAttempts plus the attempt that starts the wait.
MOST_EVALUATED = 5
# The start of a 64 × 32 PNG: signature and IHDR chunk, what the console's image check reads.
PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" \
    + bytes([0, 0, 0, 64, 0, 0, 0, 32, 8, 6, 0, 0, 0, 0, 0, 0, 0])
UNREACHABLE = "The database is unreachable; try again in a moment."

TIMEOUT, eventually, upstream = cluster.TIMEOUT, cluster.eventually, cluster.upstream


class TwoInstancesTest(cluster.ClusterTestCase):
    users = [("burst@cluster.example", "viewer")]

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        [cls.device_token] = support.devices_that_log(cls.nginx, cls.token, 1, "com.example.cluster")

    def both_in_rotation(self):
        return self.cluster.answering() == {self.a.address, self.b.address}

    def api(self, path, method="GET", token=None, **kwargs):
        return requests.request(method, self.nginx.url(path), headers={"Authorization": f"Bearer {token or self.token}"},
                                timeout=TIMEOUT, **kwargs)

    def test_requests_through_nginx_reach_both_instances(self):
        answered = self.cluster.answering(6)
        self.assertEqual(answered, {self.a.address, self.b.address})

    def test_a_session_csrf_token_and_flash_hold_on_whichever_instance_answers(self):
        admin = support.sign_in(self.nginx, cluster.ADMIN)
        posted_by, crossed = set(), 0
        for number in range(6):
            form = admin.get(self.nginx.url("/apps"), timeout=TIMEOUT)
            self.assertEqual(form.status_code, 200, support.describe(form))
            saved = admin.post(self.nginx.url("/apps"), allow_redirects=False, timeout=TIMEOUT, data={
                "_csrf": support.csrf_token(form.text), "name": f"Cluster app {number}", "bundleID": f"com.example.cluster{number}"})
            self.assertEqual(saved.status_code, 303, support.describe(saved))
            posted_by.add(upstream(saved))
            crossed += upstream(form) != upstream(saved)
            shown = admin.get(self.nginx.url(saved.headers["Location"]), timeout=TIMEOUT)
            self.assertIn(f"Added Cluster app {number}.", shown.text, f"the flash of post {number} is lost")
        self.assertEqual(posted_by, {self.a.address, self.b.address}, "both instances served the posts")
        self.assertGreater(crossed, 0, "a form shown by one instance was posted to the other")
        stored = self.cluster.query("SELECT count(*) FROM apps WHERE bundleID LIKE 'com.example.cluster_'")
        self.assertEqual(stored, [("6",)])

    def test_a_burst_of_wrong_passwords_split_over_both_gets_no_more_tries_than_one(self):
        instances = [self.a, self.b]
        # Each browser fetches its form from one instance and posts it to the other.
        forms = [support.signed_out_form(instances[index % 2]) for index in range(30)]
        start = threading.Barrier(len(forms))
        answers = [None] * len(forms)

        def post(index):
            browser, token = forms[index]
            start.wait()
            answers[index] = support.send("POST", instances[(index + 1) % 2].url("/sign-in"), browser, data={
                "_csrf": token, "email": "burst@cluster.example", "password": f"wrong passphrase {index}"})

        threads = [threading.Thread(target=post, args=(index,)) for index in range(len(forms))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertTrue(all(answer.status in (422, 429) for answer in answers), [a.summary for a in answers])
        checked = [answer for answer in answers if answer.status != 429]
        self.assertLessEqual(len(checked), MOST_EVALUATED, f"{len(checked)} of 30 wrong passwords over two instances were checked")
        browser, token = support.signed_out_form(self.b)
        right = support.send("POST", self.a.url("/sign-in"), browser,
                             data={"_csrf": token, "email": "burst@cluster.example", "password": support.PASSWORD})
        self.assertEqual(right.status, 429, f"the right password right after the burst: {right.summary}")

    def test_a_logo_uploaded_through_one_instance_is_served_by_the_other(self):
        on_a = support.sign_in(self.a, cluster.ADMIN)
        listing = on_a.get(self.a.url("/profiles"), timeout=TIMEOUT)
        created = on_a.post(self.a.url("/profiles"), allow_redirects=False, timeout=TIMEOUT,
                            data={"_csrf": support.csrf_token(listing.text), "name": "Cluster brand", "identifier": ""})
        self.assertEqual(created.status_code, 303, support.describe(created))
        branding = created.headers["Location"].rstrip("/") + "/payloads/branding"
        form = on_a.get(self.a.url(branding), timeout=TIMEOUT)
        saved = on_a.post(self.a.url(branding), allow_redirects=False, timeout=TIMEOUT, files={"appLogo1x": ("logo.png", PNG, "image/png")}, data={
            "_csrf": support.csrf_token(form.text), "baseVersion": "1", "enabled": "on", "red": "238", "green": "139",
            "blue": "48", "alpha": "255", "intent": "save"})
        self.assertEqual(saved.status_code, 303, support.describe(saved))

        # B shows the saved logo on the same form and serves its bytes.
        on_b = support.sign_in(self.b, cluster.ADMIN)
        page = on_b.get(self.b.url(branding), timeout=TIMEOUT)
        key = re.search(r'name="appLogo1x.current" value="([^"]+)"', page.text)
        self.assertIsNotNone(key, "B's branding form shows no logo")
        image = on_b.get(self.b.url(f"/images/{key.group(1)}"), timeout=TIMEOUT)
        self.assertEqual(image.status_code, 200)
        self.assertEqual(image.headers["Content-Type"], "image/png")
        self.assertEqual(image.content, PNG)

    def test_with_the_database_stopped_both_answer_503_and_resume_when_it_is_back(self):
        admin = support.sign_in(self.nginx, cluster.ADMIN)
        self.postgres.stop()
        try:
            for instance in (self.a, self.b):
                answer = requests.get(instance.url("/readyz"), timeout=TIMEOUT)
                self.assertEqual((answer.status_code, answer.json()), (503, {"status": "database_unreachable"}), instance.name)
                self.assertEqual(requests.get(instance.url("/healthz"), timeout=TIMEOUT).status_code, 200, "still alive")
            for _ in range(2):  # one answer from each instance
                page = admin.get(self.nginx.url("/dashboard"), timeout=TIMEOUT)
                self.assertEqual(page.status_code, 503, support.describe(page))
                self.assertIn(UNREACHABLE, page.text)
                self.assertEqual(page.headers.get("Retry-After"), "5")
                listing = self.api("/api/v1/profiles")
                self.assertEqual(listing.status_code, 503)
                self.assertEqual(listing.json(), {"error": {"code": "database_unavailable", "message": UNREACHABLE, "field": None}})
                self.assertEqual(listing.headers.get("Retry-After"), "5")
                check_in = self.api("/api/v1/device/policy", token=self.device_token)
                self.assertEqual((check_in.status_code, check_in.json()["error"]["code"]), (503, "database_unavailable"))
            form = admin.post(self.nginx.url("/apps"), allow_redirects=False, timeout=TIMEOUT,
                              data={"_csrf": "any", "name": "Outage", "bundleID": "com.example.outage"})
            self.assertEqual(form.status_code, 503, support.describe(form))
            self.assertTrue(self.a.is_alive() and self.b.is_alive(), self.cluster.logs())
        finally:
            self.postgres.start()
        self.assertTrue(eventually(lambda: self.a.readyz() == 200 and self.b.readyz() == 200), self.cluster.logs())
        for _ in range(2):
            self.assertEqual(admin.get(self.nginx.url("/dashboard"), timeout=TIMEOUT).status_code, 200, "the session holds")
            self.assertEqual(self.api("/api/v1/profiles").status_code, 200)
            self.assertEqual(self.api("/api/v1/device/policy", token=self.device_token).status_code, 200)
        form = admin.get(self.nginx.url("/apps"), timeout=TIMEOUT)
        saved = admin.post(self.nginx.url("/apps"), allow_redirects=False, timeout=TIMEOUT, data={
            "_csrf": support.csrf_token(form.text), "name": "After outage", "bundleID": "com.example.afteroutage"})
        self.assertEqual(saved.status_code, 303, support.describe(saved))
        self.assertEqual(self.cluster.query("SELECT count(*) FROM apps WHERE bundleID = 'com.example.outage'"), [("0",)])

    def test_sigterm_turns_readiness_drains_and_nginx_sends_the_work_to_the_other(self):
        self.b.terminate()
        self.assertTrue(eventually(lambda: self.b.readyz() == 503, timeout=cluster.DRAIN_DELAY, interval=0.05),
                        "readiness turned within the drain delay")
        self.assertEqual(requests.get(self.b.url("/readyz"), timeout=TIMEOUT).json(), {"status": "shutting_down"})
        answers = []
        deadline = time.time() + cluster.DRAIN_DELAY + 2
        while time.time() < deadline:
            answers.append(requests.get(self.nginx.url("/sign-in"), timeout=TIMEOUT).status_code)
            time.sleep(0.05)
        self.assertEqual(self.b.process.wait(timeout=30), 0, "a clean exit")
        self.assertEqual(set(answers), {200}, "no request through nginx failed while B drained and stopped")
        after = [requests.get(self.nginx.url("/sign-in"), timeout=TIMEOUT) for _ in range(4)]
        self.assertEqual({answer.status_code for answer in after}, {200})
        self.assertEqual({upstream(answer) for answer in after}, {self.a.address})
        self.b.start()
        self.assertTrue(eventually(self.both_in_rotation), "B rejoined the rotation")

    def test_a_killed_instance_s_requests_go_to_the_other(self):
        admin = support.sign_in(self.nginx, cluster.ADMIN)
        self.a.kill()
        for number in range(3):
            form = admin.get(self.nginx.url("/apps"), timeout=TIMEOUT)
            self.assertEqual(form.status_code, 200)
            saved = admin.post(self.nginx.url("/apps"), allow_redirects=False, timeout=TIMEOUT, data={
                "_csrf": support.csrf_token(form.text), "name": f"Survivor {number}", "bundleID": f"com.example.survivor{number}"})
            self.assertEqual((saved.status_code, upstream(saved)), (303, self.b.address), support.describe(saved))
        self.assertEqual(self.cluster.query("SELECT count(*) FROM apps WHERE bundleID LIKE 'com.example.survivor_'"), [("3",)])
        self.a.start()
        self.assertTrue(eventually(self.both_in_rotation), "A rejoined the rotation")


class StartingTogetherTest(unittest.TestCase):
    """Two instances launched at the same moment on an empty schema."""

    def start_together(self, demo):
        together = cluster.Cluster(cluster.shared_postgres(), count=2, demo=demo)
        self.addCleanup(together.remove)
        together.start(together=True)
        return together

    def test_both_come_up_and_one_first_admin_is_made(self):
        together = self.start_together(demo=False)
        told = [instance for instance in together.instances if "one-time password" in instance.log_text()]
        self.assertEqual(len(told), 1, together.logs())
        self.assertEqual(together.query("SELECT email FROM users"), [("admin@example.com",)])
        for instance in together.instances:
            self.assertEqual(requests.get(together.nginx.url("/sign-in"), timeout=TIMEOUT).status_code, 200)
            self.assertEqual(instance.readyz(), 200)

    def test_both_come_up_with_the_demo_and_it_is_seeded_once(self):
        together = self.start_together(demo=True)
        seeded = [instance for instance in together.instances if "Seeded demo" in instance.log_text()]
        self.assertEqual(len(seeded), 1, together.logs())
        self.assertEqual(together.query("SELECT count(*) FROM users"), [("3",)])
        [(apps, distinct)] = together.query("SELECT count(*), count(DISTINCT name) FROM apps")
        self.assertEqual(apps, distinct, "no app twice")
        [(profiles, distinct)] = together.query("SELECT count(*), count(DISTINCT name) FROM profiles")
        self.assertEqual(profiles, distinct, "no profile twice")
        # Each start gives the demo accounts fresh passwords: those printed last are the ones that work.
        printed = [re.search(r"admin@example.com\s+password: (\S+)", instance.log_text()) for instance in together.instances]
        self.assertTrue(all(printed), together.logs())
        signed_in = 0
        for match in printed:
            browser, token = support.signed_out_form(together.nginx)
            answer = support.send("POST", together.nginx.url("/sign-in"), browser,
                                  data={"_csrf": token, "email": "admin@example.com", "password": match.group(1)})
            signed_in += answer.status == 303
        self.assertEqual(signed_in, 1, "one set of printed passwords is current")

if __name__ == "__main__":
    unittest.main()
