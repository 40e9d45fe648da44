"""Wrong passwords sent all at once must be throttled like wrong passwords sent one by one.

SignInThrottle lets four failures for an email cost nothing and makes the fifth start a wait,
so however the attempts arrive at most five may be checked against the password: the four
free ones and the one that trips the throttle. Every other attempt in the burst must be
answered 429 without being evaluated, and the right password right after the burst must be
refused with 429 too, since a burst of guesses is exactly what the throttle is for.

Each attempt is a separate browser with its own pc_csrf cookie and form token, so nothing
but the throttle stands between the attempts and the password check.
"""

import threading
import unittest

import support

BURST = 30
# SignInThrottle.freeAttempts plus the attempt that starts the wait.
MOST_EVALUATED = 5


class SignInBurstTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.console = support.Console().with_users()
        cls.console.add_user("burst@test.example", "viewer")
        cls.console.start()

    @classmethod
    def tearDownClass(cls):
        cls.console.stop()

    def test_a_burst_of_wrong_passwords_is_throttled_after_five(self):
        answers = self.burst("burst@test.example", ["wrong passphrase %d" % i for i in range(BURST)])
        evaluated = [answer for answer in answers if answer.status != 429]
        failures = support.query(self.console.database, "SELECT failureCount FROM sign_in_failures WHERE email = ?",
                                 "burst@test.example")
        self.assertTrue(all(answer.status in (422, 429) for answer in answers),
                        f"answers other than 422 and 429: {[a.summary for a in answers if a.status not in (422, 429)]}")
        self.assertLessEqual(
            len(evaluated), MOST_EVALUATED,
            f"{len(evaluated)} of {BURST} concurrent wrong passwords were checked (not 429); "
            f"sign_in_failures counts {failures[0][0] if failures else 0}")

        right = self.attempt("burst@test.example", support.PASSWORD)
        self.assertEqual(right.status, 429, f"the right password right after the burst was answered {right.summary}")

    def burst(self, email, passwords):
        """Every browser first fetches its own form, then all post at the same moment."""
        forms = [support.signed_out_form(self.console) for _ in passwords]
        start = threading.Barrier(len(passwords))
        answers = [None] * len(passwords)

        def post(index):
            browser, token = forms[index]
            start.wait()
            answers[index] = self.post(browser, token, email, passwords[index])

        threads = [threading.Thread(target=post, args=(index,)) for index in range(len(passwords))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return answers

    def attempt(self, email, password):
        browser, token = support.signed_out_form(self.console)
        return self.post(browser, token, email, password)

    def post(self, browser, token, email, password):
        return support.send("POST", self.console.url("/sign-in"), browser,
                            data={"_csrf": token, "email": email, "password": password})


if __name__ == "__main__":
    unittest.main()
