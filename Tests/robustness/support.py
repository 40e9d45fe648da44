"""What the robustness tests share: a console process (the browser harness's, pointed at
$CONSOLE_BINARY), sessions signed in through the real form, API clients, a digest of the
database, and the small HTML and multipart helpers the malformed requests are built with."""

import hashlib
import os
import re
import signal
import sqlite3
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from html.parser import HTMLParser

import requests

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.path.abspath(os.environ.get("CONSOLE_BINARY", os.path.join(ROOT, ".build", "debug", "payload-console")))

sys.path.insert(0, os.path.join(ROOT, "Tests", "browser"))
import harness  # noqa: E402  (needs the path above)

# The harness starts whatever its module-level BINARY names; point it at ours so CI runs the
# binary `swift build` made and a developer can run a copy while the original is rebuilt.
harness.BINARY = BINARY
PASSWORD = harness.PASSWORD
ADMIN = "admin@test.example"

# A request that hangs is as much a failure as one that crashes; nothing here needs longer.
TIMEOUT = 30


# The throwaway PostgreSQL server `make test` starts; the PostgreSQL halves of the crash-safety
# and schemathesis tests run against it, and fail (not skip) when make test requires it.
POSTGRES = os.environ.get("PAYLOAD_CONSOLE_TEST_POSTGRES")
POSTGRES_REQUIRED = os.environ.get("PAYLOAD_CONSOLE_REQUIRE_POSTGRES") is not None


class Console(harness.ConsoleServer):
    """The harness's server plus what robustness needs: API tokens, SIGKILL and restart on the
    same database, and noticing that the process died. `postgres=True` keeps its data in a
    schema of its own on the test server instead of a file."""

    def __init__(self, postgres=False):
        super().__init__()
        self.restarts = 0
        self.schema = None
        if postgres:
            if not POSTGRES:
                raise RuntimeError("PAYLOAD_CONSOLE_TEST_POSTGRES is not set: no PostgreSQL server to test on")
            self.schema = "rb_" + uuid.uuid4().hex
            self.database = f"{POSTGRES}&schema={self.schema}"

    def pg_query(self, sql, logs=False):
        """Rows of a query on this console's PostgreSQL schema (or its log store's), read beside it."""
        schema = f"{self.schema}_logs" if logs else self.schema
        result = subprocess.run(
            ["psql", "-X", "-q", "-t", "-A", "-F", "\t", POSTGRES, "-v", "ON_ERROR_STOP=1",
             "-c", f"SET search_path TO {schema}", "-c", sql],
            text=True, check=True, capture_output=True)
        return [tuple(line.split("\t")) for line in result.stdout.splitlines() if line]

    def create_token(self, role="admin", name="robustness"):
        result = subprocess.run(
            [BINARY, "token", "create", "--role", role, "--name", name, "--db", self.database],
            text=True, capture_output=True)
        # Once in CI this died of SIGABRT beside a console just started; say what it printed.
        if result.returncode != 0:
            raise AssertionError(f"token create exited {result.returncode}: {result.stderr.strip()[-2000:]}")
        return result.stdout.strip()

    def with_users(self):
        """Starts with an admin, a helpdesk and a viewer, as the browser tests do."""
        self.add_user(ADMIN, "admin")
        self.add_user("helpdesk@test.example", "helpdesk")
        self.add_user("viewer@test.example", "viewer")
        return self

    def is_alive(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        """kill -9: no graceful shutdown, no checkpoint; the database is left as the crash leaves it."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def restart(self):
        """Starts again on the same database and port, keeping the previous log beside the new one."""
        self.log.close()
        self.restarts += 1
        os.replace(self.log.name, f"{self.log.name}.{self.restarts}")
        self.start()

    def check_health(self, grace=30):
        """None while /healthz answers 200. Otherwise what went wrong, after giving the console
        `grace` seconds to finish dying (a crashing Swift process prints its backtrace first),
        killing it if it hangs instead, and starting it again so the cases after still run."""
        health = self.healthz()
        if health == 200:
            return None
        if self.is_alive():
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self.kill()
                return self.restarted(f"/healthz answered {health} and the console hung for {grace} s, so it was killed")
        return self.restarted(f"/healthz answered {health}: the console exited with status {self.process.returncode}")

    def restarted(self, what_happened):
        report = f"{what_happened} (restarted; log: {printable(self.log_tail())})"
        self.restart()
        return report

    def log_tail(self, lines=6):
        with open(self.log.name, errors="replace") as log:
            return " | ".join(log.read().strip().splitlines()[-lines:])

    def url(self, path):
        return self.base + path

    def healthz(self):
        try:
            return requests.get(self.url("/healthz"), timeout=5).status_code
        except requests.RequestException as error:
            return f"no answer ({type(error).__name__})"


# MARK: talking to the console


def api_client(token):
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    return session


CSRF_INPUT = re.compile(r'name="_csrf" value="([^"]*)"')


def csrf_token(html):
    match = CSRF_INPUT.search(html)
    if not match:
        raise AssertionError("the page has no _csrf field")
    return match.group(1)


def signed_out_form(console):
    """A fresh browser on the sign-in page: its pc_csrf cookie and the form's matching token."""
    browser = requests.Session()
    page = browser.get(console.url("/sign-in"), timeout=TIMEOUT)
    page.raise_for_status()
    return browser, csrf_token(page.text)


def sign_in(console, email, password=PASSWORD):
    """A browser signed in through the real form, as a person would: GET the form, POST it back
    with its token, keep the cookies."""
    browser, token = signed_out_form(console)
    answer = browser.post(console.url("/sign-in"), data={"_csrf": token, "email": email, "password": password},
                          allow_redirects=False, timeout=TIMEOUT)
    if answer.status_code != 303:
        raise AssertionError(f"signing in {email} answered {answer.status_code}")
    return browser


class Admin:
    """The admin's browser, signed in through the form, and again whenever a case signed it out."""

    def __init__(self, console):
        self.console = console
        self.session = sign_in(console, ADMIN)

    def get(self, path):
        response = self.session.get(self.console.url(path), timeout=TIMEOUT)
        if response.url.split("?")[0].endswith("/sign-in"):
            self.session = sign_in(self.console, ADMIN)
            response = self.session.get(self.console.url(path), timeout=TIMEOUT)
        return response

    def submit(self, path, pairs, page=None):
        """Posts a form the way the page would, with the CSRF token the page (or `page`) shows."""
        token = csrf_token(self.get(page or path).text)
        return self.session.post(self.console.url(path), data=[("_csrf", token)] + pairs, allow_redirects=False, timeout=TIMEOUT)


def enroll_device(admin, name):
    """Enrolls a simulated device through its form with the robust app installed, and returns
    (device id, UDID, check-in token) from the page that shows the token this once."""
    page = admin.submit("/simulator", [("name", name), ("model", "iPad"), ("osVersion", "17.4"), ("supervised", "yes"),
                                       ("installedApps", "com.example.robust")], page="/simulator/new")
    if page.status_code != 200:
        raise AssertionError(f"enrolling {name} answered {describe(page)}")
    return (re.search(r'href="/simulator/(\d+)"', page.text).group(1), re.search(r"UDID <code>([^<]+)</code>", page.text).group(1),
            re.search(r'id="device-token"[^>]*value="([^"]+)"', page.text).group(1))


def devices_that_log(console, token, count, app):
    """Device tokens of `count` devices with `app` installed, in a new group whose profile
    collects every log level: devices whose uploads (`POST /api/v1/device/logs`) are kept.
    Set up through the API with an admin's `token`."""
    api = api_client(token)

    def created(path, body):
        response = api.post(console.url(path), json=body, timeout=TIMEOUT)
        if response.status_code not in (200, 201):
            raise AssertionError(f"POST {path} answered {describe(response)}")
        return response.json()

    created("/api/v1/apps", {"name": app.rsplit(".", 1)[-1].title(), "bundleID": app, "isSDKBuilt": True})
    group = created("/api/v1/groups", {"name": f"Logging iPads {uuid.uuid4().hex[:6]}"})["id"]
    profile = created("/api/v1/profiles", {"name": f"Every level {uuid.uuid4().hex[:6]}", "payloads": [
        {"PayloadType": "com.payloadconsole.sdk.logging", "enabled": True, "level": "debug", "wifiOnly": False}]})["id"]
    created(f"/api/v1/profiles/{profile}/assignments", {"groupID": group})
    tokens = []
    for number in range(1, count + 1):
        device = created("/api/v1/devices", {
            "name": f"Logging iPad {number}", "model": "iPad", "osVersion": "18.1", "serialNumber": f"DMP{uuid.uuid4().hex[:7].upper()}",
            "udid": f"00008101-{uuid.uuid4().hex[:16].upper()}", "isSupervised": True, "groupID": group, "installedApps": [app]})["id"]
        tokens.append(created(f"/api/v1/devices/{device}/token", {})["token"])
    return tokens


@dataclass
class Outcome:
    """What came back for one request: a status, or the transport error instead of one."""
    status: object
    summary: str

    @property
    def is_client_error(self):
        return isinstance(self.status, int) and 400 <= self.status < 500


def send(method, url, session=None, **kwargs):
    """Sends one request and never raises: a dropped connection or a timeout is an outcome."""
    session = session or requests
    try:
        response = session.request(method, url, allow_redirects=False, timeout=TIMEOUT, **kwargs)
    except requests.RequestException as error:
        return Outcome(None, f"no answer: {type(error).__name__}: {str(error)[:160]}")
    return Outcome(response.status_code, describe(response))


HEADING = re.compile(r"<h1[^>]*>(.*?)</h1>\s*(?:<p>(.*?)</p>)?", re.S)
ALERT = re.compile(r'role="alert"[^>]*>(.*?)</', re.S)
REQUEST_ID = re.compile(r'id="request-id">([^<]+)<')


def describe(response):
    """A line that says what the console answered: the JSON error, the page's heading and
    alert, or where a redirect goes. Control characters echoed back are shown escaped."""
    return printable(answer_line(response))


def printable(text):
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def answer_line(response):
    if response.is_redirect:
        return f"{response.status_code} → {response.headers.get('Location')}"
    text = response.text
    if response.headers.get("Content-Type", "").startswith("application/json"):
        return f"{response.status_code} {text[:220]}"
    heading, alert, request_id = HEADING.search(text), ALERT.search(text), REQUEST_ID.search(text)
    parts = [strip_tags(heading.group(1)) if heading else text[:120].strip()]
    if heading and heading.group(2):
        parts.append(strip_tags(heading.group(2)))
    if alert:
        parts.append(strip_tags(alert.group(1)))
    if request_id:
        parts.append(f"request id {request_id.group(1)}")
    return f"{response.status_code} " + " / ".join(part for part in parts if part)[:220]


def strip_tags(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


# MARK: the database, read beside the running console


# Tables and columns that change on requests that are not writes by the caller, so they are
# left out of the "unchanged" comparison:
# - sessions: signing in (our own browsers) creates rows, and lastSeenAt moves once a minute;
# - sign_in_failures: a refused sign-in (a wrong password is a correct 422) is counted on purpose;
# - users.lastSignInAt, api_tokens.lastUsedAt, devices.lastCheckInAt: touched by reads;
# - audit rows for signing in and out, written when the suite's own browsers sign in.
# - the log store's index: lines reach it behind the writer, whenever the indexer runs.
VOLATILE_TABLES = {"sessions", "sign_in_failures", "log_index_progress", "device_log_search_data", "device_log_search_idx",
                   "device_log_search_docsize", "device_log_search_config"}
VOLATILE_COLUMNS = {"users": {"lastSignInAt"}, "api_tokens": {"lastUsedAt"}, "devices": {"lastCheckInAt"}}
VOLATILE_ROWS = {"audit_events": "action NOT IN ('user.signed_in', 'user.signed_out')"}


def logs_database(database):
    """The log store's file beside a console's file (LogStoreFiles.logsPath)."""
    stem, extension = os.path.splitext(database)
    return f"{stem}-logs{extension}"


def read_only(database):
    return sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)


def query(database, sql, *parameters):
    with read_only(database) as connection:
        return connection.execute(sql, parameters).fetchall()


def digest(database, everything=False):
    """A hash of every table's rows, by table name; without the volatile ones above unless
    `everything` (to see that a sign-in, which writes only those, happened)."""
    hashes = {}
    if os.path.exists(logs_database(database)) and not database.endswith("-logs.sqlite"):
        hashes.update({f"logs:{table}": value for table, value in digest(logs_database(database), everything).items()})
    with read_only(database) as connection:
        tables = [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for table in tables:
            if table in VOLATILE_TABLES and not everything:
                continue
            columns = [row[1] for row in connection.execute(f'PRAGMA table_info("{table}")')
                       if everything or row[1] not in VOLATILE_COLUMNS.get(table, ())]
            where = f" WHERE {VOLATILE_ROWS[table]}" if table in VOLATILE_ROWS and not everything else ""
            if not columns:
                continue  # the full-text index's virtual table: its shadow tables hold its rows
            selected = ", ".join(f'"{column}"' for column in columns)
            # Tables WITHOUT ROWID (settings, log usage, FTS5 shadow tables) order by every column.
            order = ", ".join(str(index + 1) for index in range(len(columns)))
            rows = connection.execute(f'SELECT {selected} FROM "{table}"{where} ORDER BY {order}').fetchall()
            hashes[table] = hashlib.sha256(repr(rows).encode()).hexdigest()
    return hashes


def changed_tables(before, after):
    return sorted(table for table in set(before) | set(after) if before.get(table) != after.get(table))


# MARK: forms as the pages serve them


@dataclass
class Field:
    name: str
    kind: str      # input type, "select", "textarea", "submit" or "unticked"
    value: str
    options: list = field(default_factory=list)

    @property
    def is_text(self):
        """What a person types into: the fields control characters should not get through."""
        return self.kind in {"text", "email", "password", "search", "url", "tel", "number", "color", "textarea"}

    @property
    def holds_id(self):
        """A record id chosen from a list or carried in the page (parent group, base version)."""
        if self.kind == "select":
            return bool(self.options) and all(option.isdigit() for option in self.options if option)
        return self.kind == "hidden" and self.value.isdigit()


@dataclass
class Form:
    action: str
    multipart: bool
    fields: list

    def pairs(self):
        """What the browser would send, in page order: typed values, ticked boxes, selected
        options and the first named submit button; no files."""
        sent = [f for f in self.fields if f.kind not in {"file", "unticked", "submit"}]
        button = next((f for f in self.fields if f.kind == "submit"), None)
        return [(f.name, f.value) for f in sent + ([button] if button else [])]

    def field(self, name):
        return next((f for f in self.fields if f.name == name), None)


class FormParser(HTMLParser):
    """Every <form method="post"> of a page with its fields, as a browser would submit it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []
        # The POST form being read; fields outside one (a GET form's, or between forms) belong
        # to no form this parser reports.
        self._current = None
        # Forms by id, for fields that name theirs with a form="…" attribute wherever they sit.
        self._by_id = {}
        self._owned = []
        self._select = None
        self._textarea = None

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._current = None
            if attrs.get("method", "get").lower() == "post":
                self._current = Form(attrs.get("action", ""), "multipart" in attrs.get("enctype", ""), [])
                self.forms.append(self._current)
                if attrs.get("id"):
                    self._by_id[attrs["id"]] = self._current
            return
        if "form" in attrs and tag in {"input", "select", "textarea", "button"}:
            # Collected aside, joined to their form when the page is read (it may come later).
            owned = []
            self._owned.append((attrs["form"], owned))
            self._add_field(tag, attrs, owned)
            return
        if self._current is None:
            if tag == "option" and self._select is not None:
                self._add_field(tag, attrs, [])
            return
        self._add_field(tag, attrs, self._current.fields)

    def close(self):
        super().close()
        for form_id, fields in self._owned:
            if form_id in self._by_id:
                self._by_id[form_id].fields.extend(fields)

    def _add_field(self, tag, attrs, fields):
        if tag == "button" and "name" in attrs and attrs.get("type", "submit") == "submit":
            fields.append(Field(attrs["name"], "submit", attrs.get("value", "")))
        elif tag == "input" and "name" in attrs:
            kind = attrs.get("type", "text").lower()
            if kind in {"submit", "button", "image", "reset"}:
                return
            if kind in {"checkbox", "radio"}:
                # Unticked boxes and radios are not sent; keep them out of the values but know of them.
                kind = kind if "checked" in attrs else "unticked"
                value = attrs.get("value", "on")
            else:
                value = attrs.get("value", "")
            fields.append(Field(attrs["name"], kind, value))
        elif tag == "select" and "name" in attrs:
            self._select = Field(attrs["name"], "select", "", [])
            fields.append(self._select)
        elif tag == "option" and self._select is not None:
            value = attrs.get("value")
            self._select.options.append(value or "")
            if "selected" in attrs or (not self._select.value and len(self._select.options) == 1):
                self._select.value = value or ""
        elif tag == "textarea" and "name" in attrs:
            self._textarea = Field(attrs["name"], "textarea", "")
            fields.append(self._textarea)

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea.value += data

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self._current = None


def post_forms(html):
    parser = FormParser()
    parser.feed(html)
    parser.close()
    return parser.forms


# MARK: multipart bodies, built by hand so they can be built wrong


def multipart(pairs, files=None, boundary=None, part_header=None):
    """A multipart/form-data body and its boundary. `part_header` is an extra header line put
    into the first part (to send an oversized one)."""
    boundary = boundary if boundary is not None else uuid.uuid4().hex
    chunks = []
    for index, (name, value) in enumerate(pairs):
        extra = f"{part_header}\r\n".encode() if part_header and index == 0 else b""
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n'.encode() + extra
                      + b"\r\n" + as_bytes(value) + b"\r\n")
    for name, (filename, content) in (files or {}).items():
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                      f"Content-Type: application/octet-stream\r\n\r\n".encode() + content + b"\r\n")
    return b"".join(chunks) + f"--{boundary}--\r\n".encode(), boundary


def as_bytes(value):
    return value if isinstance(value, bytes) else str(value).encode()
