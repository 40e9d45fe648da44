"""Several console instances on one PostgreSQL database behind nginx, for the cluster tests.

Everything here is the test's own and goes away at the end, also when a test fails:
- a throwaway PostgreSQL server (scripts/throwaway-postgres) in a temporary folder;
- `payload-console serve` processes (the debug binary, or $CONSOLE_BINARY), each with its own
  --data-dir and free port, all on that database;
- nginx run as the current user with the repository's sample configuration
  (deploy/nginx/payload-console.conf), its upstream servers and listen port rewritten, and the
  answering instance's address added as an `X-Upstream` header so a test can see the round robin.
"""

import atexit
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

import requests
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.path.abspath(os.environ.get("CONSOLE_BINARY", os.path.join(ROOT, ".build", "debug", "payload-console")))
SAMPLE_NGINX = os.path.join(ROOT, "deploy", "nginx", "payload-console.conf")
THROWAWAY_POSTGRES = os.path.join(ROOT, "scripts", "throwaway-postgres")

sys.path.insert(0, os.path.join(ROOT, "Tests", "robustness"))
import support  # noqa: E402  (the sign-in and form helpers the robustness suite uses)

PASSWORD = support.PASSWORD

# Whatever is still running when the interpreter exits (a timeout's SIGINT or SIGTERM, a crash in
# the harness) is stopped here, so a run never leaves a server, console or nginx behind.
_running = []


def _stop_everything():
    for thing in reversed(_running):
        try:
            thing.remove()
        except Exception as error:  # keep stopping the rest
            print(f"cleaning up {thing}: {error}", file=sys.stderr)


atexit.register(_stop_everything)
# SIGTERM ends the interpreter normally, so the cleanup above runs.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
ADMIN = "admin@cluster.example"
# Long enough for a debug build migrating an empty database on a loaded 2-core machine.
START_TIMEOUT = 90
# What each instance keeps serving after SIGTERM, with /readyz at 503.
DRAIN_DELAY = 2
# How long one request through nginx may take.
TIMEOUT = 30


def eventually(condition, timeout=30, interval=0.2):
    """Whether `condition()` holds within `timeout` seconds."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return False


def upstream(response):
    """The instance nginx's answer came from (the last one it tried)."""
    return response.headers.get("X-Upstream", "").split(",")[-1].strip()


_shared_postgres = None


def shared_postgres():
    """The run's one PostgreSQL server: each cluster works in a schema of its own, so the test
    modules share it (the exit handler removes it)."""
    global _shared_postgres
    if _shared_postgres is None:
        _shared_postgres = Postgres()
    return _shared_postgres


class Postgres:
    """A PostgreSQL server of the cluster test's own, on a Unix socket in a temporary folder."""

    def __init__(self):
        # Short: a Unix socket's path has room for about 100 characters.
        self.folder = tempfile.mkdtemp(prefix="pc-cluster-pg-", dir="/tmp")
        _running.append(self)
        self.url = self._script("start")

    def stop(self):
        self._script("stop")

    def start(self):
        self._script("start")

    def remove(self):
        # Off the list only once done: interrupted half-way, the exit handler finishes it.
        if self in _running:
            self._script("remove")
            _running.remove(self)

    def schema_url(self, schema):
        return f"{self.url}&schema={schema}"

    def query(self, schema, sql):
        """Rows of `sql` in `schema`, read with psql beside the consoles."""
        result = subprocess.run(
            ["psql", "-X", "-q", "-t", "-A", "-F", "\t", self.url, "-v", "ON_ERROR_STOP=1",
             "-c", f"SET search_path TO {schema}", "-c", sql],
            text=True, check=True, capture_output=True)
        return [tuple(line.split("\t")) for line in result.stdout.splitlines() if line]

    def _script(self, action):
        result = subprocess.run([THROWAWAY_POSTGRES, action, self.folder], text=True, capture_output=True)
        if result.returncode != 0:
            raise RuntimeError(f"throwaway-postgres {action} failed: {result.stderr.strip()}")
        return result.stdout.strip()


class Instance:
    """One `payload-console serve` process on the shared database, with a data folder and port of its own."""

    def __init__(self, name, database, folder, demo=False):
        self.name = name
        self.database = database
        self.folder = os.path.join(folder, name)
        os.makedirs(self.folder, exist_ok=True)
        self.port = support.harness.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.address = f"127.0.0.1:{self.port}"
        self.demo = demo
        self.process = None
        self.log_path = os.path.join(self.folder, "server.log")
        self.starts = 0
        # Options a test adds to `serve` (the MDM test's push service stand-in).
        self.extra_arguments = []

    def url(self, path):
        return self.base + path

    def launch(self):
        """Starts the process without waiting for it (two instances starting at the same moment)."""
        self.starts += 1
        if getattr(self, "log", None):
            self.log.close()
        self.log = open(self.log_path, "a")
        self.log.write(f"--- start {self.starts}\n")
        self.log.flush()
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", str(self.port), "--db", self.database, "--data-dir", self.folder,
             "--templates", os.path.join(ROOT, "Templates"), "--public", os.path.join(ROOT, "Public"),
             "--help-pages", os.path.join(ROOT, "docs", "help"), "--log-level", "notice",
             "--drain-delay", str(DRAIN_DELAY)] + (["--demo"] if self.demo else []) + self.extra_arguments,
            stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT)

    def wait_until_ready(self, timeout=START_TIMEOUT):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n{self.log_tail(40)}")
            if self.readyz() == 200:
                return
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} was not ready within {timeout} s:\n{self.log_tail(40)}")

    def start(self):
        self.launch()
        self.wait_until_ready()

    def readyz(self):
        try:
            return requests.get(self.url("/readyz"), timeout=5).status_code
        except requests.RequestException:
            return None

    def is_alive(self):
        return self.process is not None and self.process.poll() is None

    def terminate(self):
        """SIGTERM: readiness turns, the drain delay passes, requests in flight finish."""
        self.process.send_signal(signal.SIGTERM)

    def kill(self):
        """kill -9: no shutdown at all."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self.log.close()

    def stop(self):
        if self.is_alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=DRAIN_DELAY + 20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if getattr(self, "log", None):
            self.log.close()

    def log_text(self):
        with open(self.log_path, errors="replace") as log:
            return log.read()

    def log_tail(self, lines=12):
        return "\n".join(self.log_text().strip().splitlines()[-lines:])


class Nginx:
    """nginx in front of the instances, with the sample configuration."""

    def __init__(self, folder, instances):
        self.folder = os.path.join(folder, "nginx")
        os.makedirs(self.folder, exist_ok=True)
        self.port = support.harness.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.config = os.path.join(self.folder, "nginx.conf")
        with open(self.config, "w") as config:
            config.write(self.configuration(instances))
        self.process = None

    def url(self, path):
        return self.base + path

    def configuration(self, instances):
        with open(SAMPLE_NGINX) as sample:
            site = sample.read()
        # The instances' addresses with the sample's own options (max_fails, fail_timeout).
        options = re.search(r"(?m)^    server 127\.0\.0\.1:\d+ ([^\n;]*);", site).group(1)
        servers = "".join(f"    server {instance.address} {options};\n" for instance in instances)
        site, replaced = re.subn(r"(?m)^    server 127\.0\.0\.1:\d+ [^\n]*\n(?:    server 127\.0\.0\.1:\d+ [^\n]*\n)*", servers, site)
        if replaced != 1:
            raise RuntimeError("the sample configuration's upstream servers were not found")
        site, replaced = re.subn(r"(?m)^    listen 80;", f"    listen 127.0.0.1:{self.port};", site)
        if replaced != 1:
            raise RuntimeError("the sample configuration's listen line was not found")
        folder = self.folder
        # As root the master process would hand its workers to `nobody`; keep them ours.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
        return f"""{user}daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log notice;
events {{ worker_connections 512; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    # Which instance answered, for the tests (not part of the sample).
    add_header X-Upstream $upstream_addr always;
{site}
}}
"""

    def start(self):
        self.log = open(os.path.join(self.folder, "stderr.log"), "w")
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen([binary, "-e", os.path.join(self.folder, "error.log"), "-p", self.folder, "-c", self.config],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 15
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited with {self.process.returncode}: {self.error_log()}")
            try:
                requests.get(self.url("/healthz"), timeout=2)
                return
            except requests.RequestException:
                time.sleep(0.1)
        raise RuntimeError(f"nginx did not start: {self.error_log()}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if getattr(self, "log", None):
            self.log.close()

    def error_log(self):
        path = os.path.join(self.folder, "error.log")
        if not os.path.exists(path):
            return ""
        with open(path, errors="replace") as log:
            return log.read()[-3000:]


class Cluster:
    """`count` instances on a fresh schema of `postgres`, nginx in front. `stop()` undoes
    whatever `start()` got to, so a failed start leaves nothing running."""

    def __init__(self, postgres, count=2, demo=False):
        self.postgres = postgres
        self.schema = "cl_" + uuid.uuid4().hex[:12]
        self.database = postgres.schema_url(self.schema)
        self.folder = tempfile.mkdtemp(prefix="pc-cluster-")
        self.instances = [Instance(chr(ord("a") + index), self.database, self.folder, demo) for index in range(count)]
        self.nginx = None
        _running.append(self)

    def add_user(self, email, role, password=PASSWORD):
        subprocess.run([BINARY, "user", "add", "--email", email, "--role", role, "--db", self.database],
                       input=password + "\n", text=True, check=True, capture_output=True)

    def create_token(self, role="admin", name="cluster"):
        result = subprocess.run([BINARY, "token", "create", "--role", role, "--name", name, "--db", self.database],
                                text=True, capture_output=True)
        if result.returncode != 0:
            raise AssertionError(f"token create exited {result.returncode}: {result.stderr.strip()[-2000:]}")
        return result.stdout.strip()

    def start(self, together=False):
        """Starts the instances one after another, or all at the same moment, then nginx."""
        if together:
            for instance in self.instances:
                instance.launch()
            for instance in self.instances:
                instance.wait_until_ready()
        else:
            for instance in self.instances:
                instance.start()
        self.nginx = Nginx(self.folder, self.instances)
        self.nginx.start()
        return self

    def stop(self):
        if self.nginx:
            self.nginx.stop()
        for instance in self.instances:
            instance.stop()

    def remove(self):
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
        if self in _running:
            _running.remove(self)

    def query(self, sql, logs=False):
        """Rows of `sql` in this cluster's schema, or its log store's."""
        return self.postgres.query(self.schema + ("_logs" if logs else ""), sql)

    def answering(self, requests_made=4):
        """The instances that answered `requests_made` health checks through nginx."""
        return {upstream(requests.get(self.nginx.url("/healthz"), timeout=TIMEOUT)) for _ in range(requests_made)}

    def ensure_ready(self, test):
        """Starts again whatever a test stopped, and waits until every instance is ready and
        back in nginx's rotation (nginx leaves one it saw fail out for fail_timeout)."""
        for instance in self.instances:
            if not instance.is_alive():
                instance.start()
        test.assertTrue(eventually(lambda: all(i.readyz() == 200 for i in self.instances)), self.logs())
        test.assertTrue(eventually(lambda: self.answering() == {i.address for i in self.instances}), self.logs())

    def instance_at(self, address):
        return next((instance for instance in self.instances if instance.address == address), None)

    def logs(self):
        """Every instance's log tail and nginx's errors, for a failure's message."""
        parts = [f"--- {instance.name} ({instance.address}):\n{instance.log_tail()}" for instance in self.instances]
        if self.nginx:
            parts.append(f"--- nginx:\n{self.nginx.error_log()[-1500:]}")
        return "\n".join(parts)


class ClusterTestCase(unittest.TestCase):
    """Two instances behind nginx on the shared server, with an admin (and `users`, pairs of email
    and role) and an admin API token; each test begins with both ready and in rotation."""

    users = ()

    @classmethod
    def setUpClass(cls):
        cls.postgres = shared_postgres()
        cls.cluster = Cluster(cls.postgres, count=2)
        cls.addClassCleanup(cls.cluster.remove)
        cls.cluster.add_user(ADMIN, "admin")
        for email, role in cls.users:
            cls.cluster.add_user(email, role)
        cls.token = cls.cluster.create_token()
        cls.cluster.start()
        cls.a, cls.b = cls.cluster.instances
        cls.nginx = cls.cluster.nginx

    def setUp(self):
        self.cluster.ensure_ready(self)
