"""Schemathesis against the console's own OpenAPI document, with every check it has.

It generates requests from /api/openapi.json (valid and invalid ones, and stateful sequences
that follow the links it infers) and fails on any 5xx, any answer the document does not
describe, any schema-valid request refused and any invalid one accepted. The device routes
authenticate with a device's check-in token rather than an API token, so they run separately
with the token of an enrolled simulated device.

The commands, as run (port and tokens differ per run):

    python3 -m schemathesis.cli --config-file Tests/robustness/schemathesis.toml run http://127.0.0.1:PORT/api/openapi.json --checks all --max-examples 25 --seed 1 \\
        --workers 1 --request-timeout 10 --generation-database none --no-color \\
        --header 'Authorization: Bearer <admin API token>' --exclude-path-regex '^/api/v1/device/'
    python3 -m schemathesis.cli run … (the same) --header 'Authorization: Bearer <device token>' --include-path-regex '^/api/v1/device/'

A fixed seed keeps a run reproducible; 25 examples per operation keep both runs well under a
minute on two cores. Each run's full output is kept in .build/robustness/.
"""

import os
import subprocess
import sys
import unittest

import support

REPORTS = os.path.join(support.ROOT, ".build", "robustness")
DEVICE_PATHS = "^/api/v1/device/"
# Generous for 25 examples per operation; a run that takes longer has hung on a request.
RUN_LIMIT = 240


HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = os.path.join(HERE, "schemathesis.toml")


def schemathesis_command(schema_url, token, *selection):
    # The module rather than the `schemathesis` script, which a --user install may leave off PATH.
    return [sys.executable, "-m", "schemathesis.cli", "--config-file", CONFIG, "run", schema_url, "--checks", "all", "--max-examples", "25", "--seed", "1",
            "--workers", "1", "--request-timeout", "10", "--generation-database", "none", "--no-color",
            "--header", f"Authorization: Bearer {token}", *selection]


def failures_section(output, limit=12000):
    """From the FAILURES (or ERRORS) heading to the end: what failed and how to reproduce it."""
    starts = [output.find(heading) for heading in ("= ERRORS =", "= FAILURES =") if heading in output]
    section = output[min(starts):] if starts else output
    return section if len(section) <= limit else section[:limit // 2] + "\n…\n" + section[-limit // 2:]


class SchemathesisTest(unittest.TestCase):
    # Report files are named after the backend, so both runs keep theirs.
    backend = "sqlite"

    @classmethod
    def make_console(cls):
        return support.Console()

    @classmethod
    def setUpClass(cls):
        cls.console = cls.make_console().with_users()
        cls.token = cls.console.create_token("admin", "schemathesis")
        cls.console.start()
        os.makedirs(REPORTS, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.console.stop()

    def test_api_with_an_admin_token(self):
        self.run_schemathesis("admin", self.token, "--exclude-path-regex", DEVICE_PATHS)

    def test_device_api_with_a_device_token(self):
        # Enrolled here, not in setUpClass: the admin run deletes whatever devices it finds.
        _, _, device_token = support.enroll_device(support.Admin(self.console), "Schemathesis device")
        self.run_schemathesis("device", device_token, "--include-path-regex", DEVICE_PATHS)

    def run_schemathesis(self, name, token, *selection):
        command = schemathesis_command(self.console.url("/api/openapi.json"), token, *selection)
        # The hooks teach schemathesis to write NDJSON (the device log upload).
        hooks_env = dict(os.environ, SCHEMATHESIS_HOOKS="schemathesis_hooks",
                         PYTHONPATH=os.pathsep.join(filter(None, [HERE, os.environ.get("PYTHONPATH")])))
        result = subprocess.run(command, capture_output=True, text=True, timeout=RUN_LIMIT, cwd=REPORTS, env=hooks_env)
        output = result.stdout + result.stderr
        log = os.path.join(REPORTS, f"schemathesis-{self.backend}-{name}.log")
        with open(log, "w") as file:
            file.write(" ".join(command).replace(token, "<token>") + "\n\n" + output)
        self.assertIsNone(self.console.check_health(), "the console did not survive the run")
        self.assertEqual(result.returncode, 0, f"schemathesis found problems (full output in {log}):\n{failures_section(output)}")


if __name__ == "__main__":
    unittest.main()
