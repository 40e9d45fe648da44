"""Malformed input to every form route and every JSON API route.

Each case takes a request the console accepts and breaks one thing in it: an oversized body,
broken multipart, a wrong JSON type, a negative or zero id, a control character or invalid
UTF-8 in one field, JSON nested 10,000 levels deep. It then checks that
  - the answer is a 4xx (413 for the oversized bodies): never a 5xx, never a dropped connection;
  - the database is unchanged (support.digest, which lists the tables and columns left out);
  - GET /healthz still answers 200.
A console that dies is restarted on the same database, so the cases after it still run; the
case that killed it fails with the exit status and the end of the log.

Form routes are listed in FORM_ROUTES (a test fails when the Swift sources register a POST page
the table misses); their fields are read from the pages themselves. API routes come from the
console's OpenAPI document, with a valid body per operation in API_BODIES (a test fails when an
operation has no entry). ValidRequestsTest proves every valid request is accepted, so a refusal
in the malformed cases is about the one thing that was broken, never about the rest.
"""

import base64
import copy
import glob
import itertools
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
import unittest
from dataclasses import dataclass, field
from urllib.parse import urlencode

import requests

import support
from support import PASSWORD, TIMEOUT

# ROBUSTNESS_VERBOSE=1 prints every case with the console's answer, passing or not.
VERBOSE = os.environ.get("ROBUSTNESS_VERBOSE") == "1"
MiB = 1 << 20
BAD_TEXT = [("NUL", "\x00"), ("U+0001", "\x01"), ("U+001B", "\x1b"), ("invalid UTF-8", b"\xff\xfe")]
BAD_IDS = ["-1", "0"]
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


# MARK: the form routes


@dataclass
class FormRoute:
    """A page form. `action` and `page` name seeds in braces ({group}); values are formatted
    with the seeds, a unique {n} and, for accounts made per case, {email}."""
    action: str
    page: str
    values: dict = field(default_factory=dict)  # what makes the page's form valid
    pick: dict = field(default_factory=dict)    # hidden values choosing one of several forms with this action
    fields: tuple = None                         # the text fields to break; default all of them
    files: dict = field(default_factory=dict)   # file input -> seed holding its content
    account: str = "admin"                       # admin | own (a new user, signed in) | signed-out (a new user)
    reads_only: bool = False                     # a download: accepted without writing anything
    linked: tuple = ()                           # fields that must carry the same value
    params: dict = field(default_factory=dict)  # fixed path values (the payload kind)

    @property
    def route(self):
        """The route as the Swift sources spell it, parameters blanked: /groups/{}."""
        return PLACEHOLDER.sub("{}", self.action)

    @property
    def label(self):
        fixed = self.action.format_map(DefaultBraces(self.params))
        return f"POST {fixed}" + "".join(f" [{name}={value}]" for name, value in self.pick.items())


class DefaultBraces(dict):
    def __missing__(self, key):
        return "{" + key + "}"


with open(os.path.join(os.path.dirname(__file__), "..", "SigningTests", "Certificates", "api.der"), "rb") as der:
    PINNED_CERTIFICATE = base64.b64encode(der.read()).decode()

PAYLOAD_FORMS = {
    # Saving what is already there writes nothing, so the valid values differ from the seed's.
    "single-app-mode": ({"app": "com.example.sam{n}"}, None),
    "asam-allowlist": ({"apps": "com.example.robust"}, None),
    "required-apps": ({"apps": "com.example.required{n}"}, None),
    "dlp": ({}, None),
    # The test-a-point fields belong to another button; saving ignores them by design.
    "geofence": ({"name": "Campus", "latitude": "52.52", "longitude": "13.405", "radius": "200"},
                 ("name", "latitude", "longitude", "radius")),
    "logging": ({}, None),
    "authentication": ({"offlineAccessEnabled": "on", "maximumOffline": "1440"}, None),
    "branding": ({}, None),
    "managed-app-config": ({"app": "com.example.robust", "keyName": "serverURL", "keyValue.0": "https://example.com"}, None),
    "custom-settings": ({"text": "kiosk={n}"}, None),
    # An iOS rule ignores the app box, so only the version is broken.
    "compliance": ({"subject": "os-version", "app": "", "comparison": "lessThan", "version": "1.{n}", "action": "block"}, ("version",)),
    "compromised-protection": ({"enabled": "on", "action": "wipe"}, None),
    "app-tunnel": ({"mode": "split", "addresses": "data{n}.example.com:7777"}, None),
    "integrated-authentication": ({"enabled": "on", "sites": "wiki{n}.example.com", "credential": "certificate"}, None),
    "analytics": ({}, None),
    # The certificate travels in the form as base64 DER (a hidden field), so it is broken too.
    "certificate-pinning": ({"enabled": "on", "hosts": "api{n}.example.com", "certificate": PINNED_CERTIFICATE}, None),
}

NEW_PASSWORD = "changed passphrase {n}"

FORM_ROUTES = [
    FormRoute("/sign-in", "/sign-in", {"email": "{email}", "password": PASSWORD}, fields=("email", "password"), account="signed-out"),
    FormRoute("/sign-out", "/dashboard", account="own"),
    FormRoute("/account/password", "/account/password", {"current": PASSWORD, "new": NEW_PASSWORD, "confirmation": NEW_PASSWORD},
              fields=("current", "new"), linked=("new", "confirmation"), account="own"),
    FormRoute("/users", "/users", {"email": "person{n}@test.example", "role": "viewer"}),
    FormRoute("/users/{user}/role", "/users", {"role": "helpdesk"}),
    FormRoute("/users/{user}/delete", "/users"),
    FormRoute("/apps", "/apps", {"name": "Form app {n}", "bundleID": "com.example.form{n}"}),
    FormRoute("/apps/{spare_app}", "/apps/{spare_app}/edit"),
    FormRoute("/apps/{spare_app}/delete", "/apps"),
    FormRoute("/groups", "/groups", {"name": "Form group {n}", "parentID": "{group}"}),
    FormRoute("/groups/{child_group}", "/groups/{child_group}/edit"),
    FormRoute("/groups/{spare_group}/delete", "/groups/{spare_group}"),
    FormRoute("/devices", "/devices/new", {"name": "Form device {n}", "model": "iPad", "osVersion": "17.4",
                                           "serialNumber": "FORM{n:08d}", "udid": "00008030-{n:016X}", "groupID": "{group}"}),
    FormRoute("/devices/{spare_device}", "/devices/{spare_device}/edit"),
    FormRoute("/devices/{spare_device}/delete", "/devices/{spare_device}"),
    # The command form has one field per kind of command; each is read only for its own kind.
    # The device page has it once in full (the one with an apps field) and twice as a shortcut
    # (request logs; fetch feedback) whose hidden requestType picks them.
    FormRoute("/devices/{checkin}/commands", "/devices/{checkin}", {"requestType": "ManagedApplicationFeedback", "apps": "com.example.robust"},
              fields=("apps",), pick={"apps": None}),
    FormRoute("/devices/{checkin}/commands", "/devices/{checkin}", {"requestType": "RequestLogs", "captureMinutes": "30"},
              fields=("captureMinutes",), pick={"apps": None}),
    FormRoute("/devices/{checkin}/commands", "/devices/{checkin}", pick={"requestType": "RequestLogs"}),
    FormRoute("/devices/{checkin}/commands", "/devices/{checkin}", pick={"requestType": "ManagedApplicationFeedback"}),
    # Each waiting command's row has its Cancel form; an admin also sees "Cancel every waiting command".
    FormRoute("/devices/{checkin}/commands/{waiting}/cancel", "/devices/{checkin}"),
    FormRoute("/devices/{checkin}/commands/clear", "/devices/{checkin}"),
    # Each accepted release uses its device up (it is leaving); `ensure` enrolls another.
    FormRoute("/devices/{enrolled}/mdm/release", "/devices/{enrolled}", {"removeFirst": "on"}),
    FormRoute("/tokens", "/tokens", {"name": "Form token {n}", "role": "viewer"}),
    FormRoute("/tokens/{spare_token}/revoke", "/tokens"),
    FormRoute("/simulator", "/simulator/new", {"name": "Form simulator {n}", "model": "iPad", "osVersion": "17.4"}),
    FormRoute("/simulator/{sim}/actions", "/simulator/{sim}", pick={"action": "emitLog"}),
    FormRoute("/simulator/{sim}/actions", "/simulator/{sim}", pick={"action": "copy"}),
    FormRoute("/simulator/{sim}/actions", "/simulator/{sim}", {"latitude": "52.52", "longitude": "13.405"},
              pick={"action": "setLocation", "latitude": None}),
    FormRoute("/simulator/{sim}/actions", "/simulator/{sim}", pick={"action": "advanceClock"}),
    FormRoute("/simulator/{sim}/actions", "/simulator/{sim}", pick={"action": "connect"}),
    FormRoute("/simulator/{sim}/actions", "/simulator/{sim}", pick={"action": "openLink"}),
    FormRoute("/simulator/{sim}/actions", "/simulator/{sim}", pick={"action": "openMailto"}),
    FormRoute("/profiles", "/profiles", {"name": "Form profile {n}"}),
    FormRoute("/profiles/{profile}/details", "/profiles/{profile}", {"name": "Renamed profile {n}"}),
    FormRoute("/profiles/{spare_profile}/delete", "/profiles/{spare_profile}"),
    FormRoute("/profiles/{profile}/clone", "/profiles/{profile}"),
    FormRoute("/tour/steps/{step}", "/tour", params={"step": "kiosk-home"}),
    FormRoute("/tour/stories/{story}/restart", "/tour", params={"story": "kiosk"}),
    FormRoute("/profiles/{profile}/versions/{number}/restore", "/profiles/{profile}/versions/1", {"impactConfirmed": "yes"}, params={"number": "1"}),
    # Both go through their impact preview, which holds the form that makes the change.
    FormRoute("/profiles/{profile}/assignments", "/profiles/{profile}/assignments/preview?groupID={spare_group}"),
    FormRoute("/profiles/{profile}/assignments/{group}/remove", "/profiles/{profile}/assignments/{group}/remove"),
    # The seed profile reaches devices, so a save is confirmed after its impact preview: the
    # valid request is the confirmation's.
    *[FormRoute("/profiles/{profile}/payloads/{kind}", "/profiles/{profile}/payloads/{kind}", {**values, "impactConfirmed": "yes"},
                fields=fields, params={"kind": kind})
      for kind, (values, fields) in PAYLOAD_FORMS.items()],
    FormRoute("/profiles/{profile}/payloads/{kind}/remove", "/profiles/{profile}", {"impactConfirmed": "yes"}, params={"kind": "single-app-mode"}),
    FormRoute("/signing", "/signing", files={"certificate": "certificate_pem", "privateKey": "key_pem"}),
    # The push certificate seed's file again (a renewal with the same topic), and a link for the seed group.
    FormRoute("/enrollment/push-certificate", "/enrollment", files={"certificate": "push_pem"}),
    FormRoute("/enrollment/links", "/enrollment", {"group": "{group}", "hours": "24"}),
    FormRoute("/enrollment/links/{enrollment}/revoke", "/enrollment"),
    # A device is enrolled (the release cases' seed), so an admin's own CA goes in confirmed.
    FormRoute("/enrollment/authority", "/enrollment", {"confirmDevicesLost": "on"}, files={"certificate": "ca_pem", "privateKey": "ca_key"}),
    FormRoute("/apps/{app}/specfile", "/apps/{app}/edit", files={"specfile": "specfile"}),
    # The seed file is imported again and again: from the second time its identifier matches,
    # and the import asks first (new profile or new version), writing nothing. The answer the
    # choice page sends, a new profile, makes each valid request write.
    FormRoute("/profiles/import", "/profiles", {"destination": "new-profile"}, files={"profile": "mobileconfig"}),
    # The viewer's tick boxes sit outside its selection form (form="log-selection"), so the
    # valid value names the seed line; "Delete…" on that form leads to the confirmation below.
    FormRoute("/logs/export", "/logs", {"line": "{log_line}"}, reads_only=True),
    FormRoute("/logs/delete", "/logs/delete"),
    FormRoute("/settings", "/settings", {"logCapMegabytes": "{n}00", "logRetentionDays": "30"}),
    FormRoute("/settings/retention", "/settings"),
    FormRoute("/devices/{checkin}/notes", "/devices/{checkin}", {"body": "Robust note {n}"}),
    FormRoute("/devices/{checkin}/notes/{note}", "/devices/{checkin}/notes/{note}/edit", {"body": "Edited note {n}"}),
    FormRoute("/devices/{checkin}/notes/{note}/delete", "/devices/{checkin}"),
    # The list's tick boxes sit outside its bulk form too; the seed device leaves its group.
    FormRoute("/devices/bulk", "/devices", {"device": "{spare_device}", "action": "move", "groupID": "none"}),
    # "Every device on the list": the filter the page applied and the count it showed, hidden.
    FormRoute("/devices/bulk", "/devices", {"scope": "filter", "action": "requestLogs"}, fields=("filter", "expected")),
]


# MARK: the API routes

# Every API path with parameters, spelled with the seeds it aims at.
API_TARGETS = {
    "/api/v1/apps/{id}": "/api/v1/apps/{spare_app}",
    "/api/v1/groups/{id}": "/api/v1/groups/{child_group}",
    "/api/v1/devices/{id}": "/api/v1/devices/{spare_device}",
    "/api/v1/devices/{id}/group": "/api/v1/devices/{spare_device}/group",
    "/api/v1/devices/{id}/sdk-profile": "/api/v1/devices/{checkin}/sdk-profile",
    "/api/v1/profiles/{id}": "/api/v1/profiles/{profile}",
    # The specfile describes the "app" seed's bundle ID (com.example.robust).
    "/api/v1/apps/{id}/specfile": "/api/v1/apps/{app}/specfile",
    "/api/v1/profiles/{id}/assignments": "/api/v1/profiles/{profile}/assignments",
    "/api/v1/profiles/{id}/assignments/{group}": "/api/v1/profiles/{profile}/assignments/{group}",
    "/api/v1/profiles/{id}/versions/{number}/mobileconfig": "/api/v1/profiles/{profile}/versions/1/mobileconfig",
    "/api/v1/profiles/{id}/versions/{number}/sdk-profile": "/api/v1/profiles/{profile}/versions/1/sdk-profile",
    "/api/v1/simulator/{udid}": "/api/v1/simulator/{udid}",
    "/api/v1/simulator/{udid}/actions": "/api/v1/simulator/{udid}/actions",
    "/api/v1/simulator/{udid}/events": "/api/v1/simulator/{udid}/events",
    "/api/v1/device/commands/{uuid}": "/api/v1/device/commands/{command}",
    # A new token for the check-in device would end the device cases' token: the spare device takes it.
    "/api/v1/devices/{id}/token": "/api/v1/devices/{spare_device}/token",
    "/api/v1/devices/{id}/commands": "/api/v1/devices/{checkin}/commands",
    "/api/v1/devices/{id}/commands/{uuid}": "/api/v1/devices/{checkin}/commands/{waiting}",
    "/api/v1/devices/{id}/feedback": "/api/v1/devices/{checkin}/feedback?app=com.example.robust",
    "/api/v1/devices/{id}/notes": "/api/v1/devices/{checkin}/notes",
    "/api/v1/devices/{id}/notes/{note}": "/api/v1/devices/{checkin}/notes/{note}",
    "/api/v1/enrollments/{id}": "/api/v1/enrollments/{enrollment}",
    "/api/v1/devices/{id}/mdm/release": "/api/v1/devices/{enrolled}/mdm/release",
}


def app_body(s, n):
    return {"name": f"API app {n}", "bundleID": f"com.example.api{n}", "isManaged": True, "isSDKBuilt": False,
            "hasAssessmentEntitlement": False, "iconColor": "#1e88e5"}


def device_body(s, n):
    return {"name": f"API device {n}", "model": "iPad", "osVersion": "17.4", "serialNumber": f"API{n:08d}",
            "udid": f"00008101-{n:016X}", "isSupervised": True, "owner": "Robustness", "groupID": s["group"],
            "installedApps": ["com.example.robust"]}


def profile_body(s, n):
    return {"name": f"API profile {n}", "description": "Made by the robustness suite",
            "payloads": [{"PayloadType": "com.apple.app.lock", "App": {"Identifier": "com.example.robust"}}]}


# A valid body for every operation that takes one, by method and path.
API_BODIES = {
    ("POST", "/api/v1/apps"): app_body,
    ("PUT", "/api/v1/apps/{id}"): app_body,
    ("POST", "/api/v1/groups"): lambda s, n: {"name": f"API group {n}", "parentID": s["group"]},
    ("PUT", "/api/v1/groups/{id}"): lambda s, n: {"name": f"API group {n}", "parentID": s["group"]},
    ("POST", "/api/v1/devices"): device_body,
    ("PUT", "/api/v1/devices/{id}"): device_body,
    ("PUT", "/api/v1/devices/{id}/group"): lambda s, n: {"groupID": s["group"]},
    ("POST", "/api/v1/profiles"): lambda s, n: {**profile_body(s, n), "identifier": f"com.example.profiles.api{n}"},
    ("PUT", "/api/v1/profiles/{id}"): profile_body,
    ("POST", "/api/v1/profiles/{id}/assignments"): lambda s, n: {"groupID": s["spare_group"]},
    ("POST", "/api/v1/simulator/{udid}/actions"): lambda s, n: {
        "action": "emitLog", "app": "com.example.robust", "level": "warning", "message": f"Robustness {n}", "count": 2},
    ("POST", "/api/v1/devices/{id}/commands"): lambda s, n: {"requestType": "RequestLogs", "captureMinutes": 30},
    ("POST", "/api/v1/devices/{id}/notes"): lambda s, n: {"body": f"API note {n}"},
    ("PUT", "/api/v1/devices/{id}/notes/{note}"): lambda s, n: {"body": f"API edit {n}"},
    ("POST", "/api/v1/device/beacon"): lambda s, n: {
        "bundleID": "com.example.robust", "appVersion": f"1.{n}", "osVersion": "17.4", "enrollment": "enrolled",
        "compliance": "blocked", "complianceReason": "iOS earlier than 18"},
    ("POST", "/api/v1/enrollments"): lambda s, n: {"group": s["group"], "expiresInHours": 24},
    ("POST", "/api/v1/devices/{id}/mdm/release"): lambda s, n: {"removeFirst": True},
    ("POST", "/api/v1/device/commands/{uuid}"): lambda s, n: {
        "Status": "Error", "ErrorChain": [{"ErrorCode": 12, "ErrorDomain": "Robustness", "LocalizedDescription": "Broken on purpose"}]},
}


@dataclass
class Operation:
    method: str
    path: str       # as the OpenAPI document spells it
    spec: dict

    @property
    def label(self):
        return f"{self.method} {self.path}"

    @property
    def has_body(self):
        """A JSON body, which the malformed-body cases are written for. The NDJSON log upload
        has its own cases in the Swift tests (LogIngestTests) and its schemathesis run."""
        return "application/json" in self.spec.get("requestBody", {}).get("content", {})

    @property
    def for_devices(self):
        return any("deviceToken" in scheme for scheme in self.spec.get("security", []))

    @property
    def needs_if_match(self):
        return any(p.get("name") == "If-Match" for p in self.spec.get("parameters", []))


def operations(document):
    for path, methods in sorted(document["paths"].items()):
        for method, spec in sorted(methods.items()):
            yield Operation(method.upper(), path, spec)


# MARK: the records the cases aim at


class Seeds(dict):
    """The records the cases aim at, by name ("group", "sim", "command", …). `ensure` runs before
    every case and recreates what an accepted request removed or used up, so each case meets the
    same kind of state whatever the cases before it did."""

    def __init__(self, console, api, admin):
        super().__init__(number="1")
        self.console, self.api, self.admin = console, api, admin
        self.counter = itertools.count(1)
        self["certificate_pem"], self["key_pem"] = signing_pair(console.folder)
        self["ca_pem"], self["ca_key"] = signing_pair(console.folder, "/CN=Robustness device CA")
        self["push_pem"] = b"".join(signing_pair(console.folder, "/UID=com.apple.mgmt.External.robustness/CN=APSP:robustness"))
        # A specfile for the "app" seed's bundle ID (com.example.robust).
        self["specfile"] = (b"<managedAppConfiguration><version>1</version><bundleId>com.example.robust</bundleId>"
                            b"<dict><string keyName=\"serverURL\"><defaultValue><value>https://example.com</value></defaultValue></string></dict>"
                            b"</managedAppConfiguration>")
        self["mobileconfig"] = (b'<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>'
                                b"<key>PayloadType</key><string>Configuration</string>"
                                b"<key>PayloadIdentifier</key><string>com.example.robust.imported</string>"
                                b"<key>PayloadDisplayName</key><string>Imported kiosk</string><key>PayloadContent</key><array><dict>"
                                b"<key>PayloadType</key><string>com.apple.app.lock</string>"
                                b"<key>App</key><dict><key>Identifier</key><string>com.example.kiosk</string></dict>"
                                b"</dict></array></dict></plist>")

    def unique(self):
        return next(self.counter)

    def ensure(self):
        for name, usable, create in self.recipes():
            sql = usable() if name in self else None
            # The log line lives in the log store's file; every other seed in the console's.
            database = support.logs_database(self.console.database) if name == "log_line" else self.console.database
            if sql is None or not support.query(database, *sql):
                create()

    def recipes(self):
        """(seed, SQL that finds it still usable, how to make it), dependencies first."""
        return [
            ("app", lambda: ("SELECT 1 FROM apps WHERE id = ?", self["app"]), self.make_app),
            ("spare_app", lambda: ("SELECT 1 FROM apps WHERE id = ?", self["spare_app"]), self.make_spare_app),
            ("group", lambda: ("SELECT 1 FROM device_groups WHERE id = ?", self["group"]), self.make_group),
            # Enrollment links need the push topic.
            ("push_certificate", lambda: ("SELECT 1 FROM mdm_push_certificate",), self.make_push_certificate),
            # Unused, unexpired, and among the 20 the enrollment page lists (its Revoke form is there).
            ("enrollment", lambda: ("""SELECT 1 FROM mdm_enrollment_links WHERE id = ? AND challengeUsedAt IS NULL AND expiresAt > ?
                                       AND id IN (SELECT id FROM mdm_enrollment_links ORDER BY id DESC LIMIT 20)""",
                                    self["enrollment"], time.time() + 60), self.make_enrollment),
            ("child_group", lambda: ("SELECT 1 FROM device_groups WHERE id = ?", self["child_group"]), self.make_child_group),
            ("spare_group", lambda: ("SELECT 1 FROM device_groups WHERE id = ?", self["spare_group"]), self.make_spare_group),
            ("spare_device", lambda: ("SELECT 1 FROM devices WHERE id = ?", self["spare_device"]), self.make_spare_device),
            ("profile", lambda: ("""SELECT 1 FROM profiles p JOIN profile_assignments a ON a.profileID = p.id
                                    WHERE p.id = ? AND a.groupID = ? AND p.version >= 2 AND p.payloadKinds LIKE '%single-app-mode%'""",
                                 self["profile"], self["group"]), self.make_profile),
            ("spare_profile", lambda: ("SELECT 1 FROM profiles WHERE id = ?", self["spare_profile"]), self.make_spare_profile),
            ("sim", lambda: ("SELECT 1 FROM devices WHERE id = ?", self["sim"]), self.make_sim),
            ("checkin", lambda: ("SELECT 1 FROM devices WHERE id = ? AND tokenHash IS NOT NULL", self["checkin"]), self.make_checkin),
            # Handed to the device and not answered: what a device's answer is valid for.
            ("command", lambda: ("SELECT 1 FROM device_commands WHERE uuid = ? AND deviceID = ? AND status = 'sent'",
                                 self["command"], self["checkin"]), self.make_command),
            # Still waiting: what a person may cancel.
            ("waiting", lambda: ("SELECT 1 FROM device_commands WHERE uuid = ? AND deviceID = ? AND status IN ('queued', 'sent', 'notNow')",
                                 self["waiting"], self["checkin"]), self.make_waiting),
            ("user", lambda: ("SELECT 1 FROM users WHERE id = ?", self["user"]), self.make_user),
            ("spare_token", lambda: ("SELECT 1 FROM api_tokens WHERE id = ? AND revokedAt IS NULL", self["spare_token"]),
             self.make_spare_token),
            ("note", lambda: ("SELECT 1 FROM device_notes WHERE id = ? AND deviceID = ?", self["note"], self["checkin"]), self.make_note),
            ("log_line", lambda: ("SELECT 1 FROM device_logs WHERE id = ?", self["log_line"]), self.make_log_line),
            # Enrolled over MDM and not leaving: what a release is valid for.
            ("enrolled", lambda: ("SELECT 1 FROM mdm_devices WHERE deviceID = ? AND state = 'enrolled' AND releaseRequestedAt IS NULL",
                                  self["enrolled"]), self.make_enrolled),
        ]

    def created(self, path, body):
        response = self.api.post(self.console.url(path), json=body, timeout=TIMEOUT)
        if response.status_code != 201:
            raise AssertionError(f"seeding POST {path} answered {support.describe(response)}")
        return response.json()["id"]

    def make_app(self):
        self["app"] = self.created("/api/v1/apps", {"name": "Robust app", "bundleID": "com.example.robust", "isSDKBuilt": True})

    def make_spare_app(self):
        self["spare_app"] = self.created("/api/v1/apps", app_body(self, self.unique()))

    def make_push_certificate(self):
        uploaded = self.api.put(self.console.url("/api/v1/mdm/push-certificate"), data=self["push_pem"],
                                headers={"Content-Type": "application/x-pem-file"}, timeout=TIMEOUT)
        if uploaded.status_code != 200:
            raise AssertionError(f"uploading the push certificate answered {support.describe(uploaded)}")
        self["push_certificate"] = "1"

    def make_enrollment(self):
        self["enrollment"] = self.created("/api/v1/enrollments", {"group": self["group"], "expiresInHours": 24})

    def make_group(self):
        self["group"] = self.created("/api/v1/groups", {"name": f"Robust group {self.unique()}"})

    def make_child_group(self):
        self["child_group"] = self.created("/api/v1/groups", {"name": f"Robust child {self.unique()}", "parentID": self["group"]})

    def make_spare_group(self):
        self["spare_group"] = self.created("/api/v1/groups", {"name": f"Spare group {self.unique()}"})

    def make_spare_device(self):
        self["spare_device"] = self.created("/api/v1/devices", device_body(self, self.unique()))

    def make_profile(self):
        """A profile in version 2 (so version 1 can be restored) with Single App Mode (so it can
        be removed), assigned to the group (so the assignment can be removed)."""
        n = self.unique()
        self["profile"] = self.created("/api/v1/profiles", {**profile_body(self, n), "identifier": f"com.example.profiles.seed{n}"})
        saved = self.api.put(self.console.url(f"/api/v1/profiles/{self['profile']}"), json=profile_body(self, n),
                             headers={"If-Match": '"1"'}, timeout=TIMEOUT)
        if saved.status_code != 200 or saved.json().get("version") != 2:
            raise AssertionError(f"saving the seed profile's version 2 answered {support.describe(saved)}")
        answer = self.api.post(self.console.url(f"/api/v1/profiles/{self['profile']}/assignments"), json={"groupID": self["group"]},
                               timeout=TIMEOUT)
        if answer.status_code != 200:
            raise AssertionError(f"assigning the seed profile answered {support.describe(answer)}")

    def make_note(self):
        added = self.admin.submit(f"/devices/{self['checkin']}/notes", [("body", f"Seed note {self.unique()}")],
                                  page=f"/devices/{self['checkin']}")
        if added.status_code != 303:
            raise AssertionError(f"adding the seed note answered {support.describe(added)}")
        self["note"] = support.query(self.console.database, "SELECT max(id) FROM device_notes WHERE deviceID = ?", self["checkin"])[0][0]

    def make_log_line(self):
        """A line received 400 days ago, so the deletion and the retention cases both have one to
        remove. Written straight to the log store's file: an upload would need a device whose
        policy collects it, and would be received now. The console's indexer reaches it behind
        the writer, as it reaches an upload."""
        with sqlite3.connect(support.logs_database(self.console.database), timeout=10) as connection:
            cursor = connection.execute(
                """INSERT INTO device_logs (deviceID, deviceName, app, kind, level, message, loggedAt, receivedAt, byteCount)
                   VALUES (NULL, 'Robust device', 'com.example.robust', 'application', 'error', 'Robust line', ?, ?, 11)""",
                (0, 0))
            self["log_line"] = cursor.lastrowid
        connection.close()

    def make_enrolled(self):
        """A device enrolled over MDM, written straight to its table: enrolling for real takes
        SCEP and signed check-ins, which the MDM suite covers; here only the release forms need one."""
        device = self.created("/api/v1/devices", device_body(self, self.unique()))
        udid = support.query(self.console.database, "SELECT udid FROM devices WHERE id = ?", device)[0][0]
        with sqlite3.connect(self.console.database, timeout=10) as connection:
            connection.execute("""INSERT INTO mdm_devices (deviceID, udid, state, topic, enrolledAt, notNowRun)
                                  VALUES (?, ?, 'enrolled', 'com.apple.mgmt.External.robustness', ?, '[]')""", (device, udid, time.time()))
        connection.close()
        self["enrolled"] = device

    def make_spare_profile(self):
        self["spare_profile"] = self.created("/api/v1/profiles", {"name": f"Spare profile {self.unique()}"})

    def enroll(self, name):
        return support.enroll_device(self.admin, f"{name} {self.unique()}")

    def make_sim(self):
        """The device the simulator cases play, with the robust app on screen so the page shows
        the app's controls. Nothing is queued for it: opening the simulator runs queued commands."""
        self["sim"], self["udid"], _ = self.enroll("Robust simulator")
        launched = self.api.post(self.console.url(f"/api/v1/simulator/{self['udid']}/actions"),
                                 json={"action": "launchApp", "app": "com.example.robust"}, timeout=TIMEOUT)
        if launched.status_code != 200:
            raise AssertionError(f"launching the app on the seed simulator answered {support.describe(launched)}")

    def make_checkin(self):
        """The device the command cases queue for and answer as; its simulator is never opened."""
        self["checkin"], _, self["device_token"] = self.enroll("Robust check-in device")

    def make_command(self):
        queued = self.admin.submit(f"/devices/{self['checkin']}/commands", [("requestType", "RestartDevice")],
                                   page=f"/devices/{self['checkin']}")
        if queued.status_code != 303:
            raise AssertionError(f"queuing the seed command answered {support.describe(queued)}")
        answer = requests.get(self.console.url("/api/v1/device/commands"), timeout=TIMEOUT,
                              headers={"Authorization": f"Bearer {self['device_token']}"})
        self["command"] = answer.json()["commands"][-1]["CommandUUID"]

    def make_waiting(self):
        queued = self.api.post(self.console.url(f"/api/v1/devices/{self['checkin']}/commands"), json={"requestType": "RestartDevice"},
                               timeout=TIMEOUT)
        if queued.status_code != 201:
            raise AssertionError(f"queuing the seed command to cancel answered {support.describe(queued)}")
        self["waiting"] = queued.json()["uuid"]

    def make_user(self):
        email = f"target{self.unique()}@test.example"
        self.console.add_user(email, "viewer")
        self["user"] = support.query(self.console.database, "SELECT id FROM users WHERE email = ?", email)[0][0]

    def make_spare_token(self):
        name = f"spare {self.unique()}"
        self.console.create_token("viewer", name)
        self["spare_token"] = support.query(self.console.database, "SELECT id FROM api_tokens WHERE name = ?", name)[0][0]

    def new_account(self):
        """A user of its own for a case that signs in, signs out or changes a password, so the
        sign-in throttle and the admin's session stay out of it."""
        email = f"own{self.unique()}@test.example"
        self.console.add_user(email, "viewer")
        return email


def signing_pair(folder, subject="/CN=Robustness upload"):
    """A self-signed certificate and its key, as an admin would upload them."""
    key, certificate = os.path.join(folder, "upload.key"), os.path.join(folder, "upload.crt")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                    "-subj", subject, "-days", "30"], check=True, capture_output=True)
    with open(certificate, "rb") as c, open(key, "rb") as k:
        return c.read(), k.read()


# MARK: requests, valid and broken


@dataclass
class Probe:
    label: str
    method: str
    path: str
    headers: dict
    body: bytes
    session: object = None
    expect: int = None  # a particular 4xx; otherwise any 4xx will do


@dataclass
class Filled:
    """A form as its page served it, filled in with valid values, ready to be broken and sent."""
    browser: object
    form: object
    pairs: list
    files: dict
    values: dict
    path: str

    def encoded(self, pairs):
        return form_body(pairs, self.files, self.form.multipart)

    def probe(self, label, headers, body, expect=None, path=None):
        return Probe(label, "POST", path or self.path, headers, body, self.browser, expect)


def form_body(pairs, files, as_multipart):
    if as_multipart or files:
        body, boundary = support.multipart(pairs, files)
        return {"Content-Type": f"multipart/form-data; boundary={boundary}"}, body
    return {"Content-Type": "application/x-www-form-urlencoded"}, urlencode(pairs).encode()


def oversize_form(pairs, files, _):
    return form_body(pairs + [("padding", "a" * (MiB + 1024))], {}, False)


def oversize_multipart(pairs, files, _):
    return form_body(pairs + [("padding", "a" * (5 * MiB + 1024))], files, True)


def empty_boundary(pairs, files, _):
    return {"Content-Type": "multipart/form-data; boundary="}, b"x"


def missing_boundary(pairs, files, _):
    body, _ = support.multipart(pairs, files)
    return {"Content-Type": "multipart/form-data"}, body


def long_boundary(pairs, files, _):
    # RFC 2046 allows 1 to 70 characters.
    body, boundary = support.multipart(pairs, files, boundary="b" * 80)
    return {"Content-Type": f"multipart/form-data; boundary={boundary}"}, body


def truncated_multipart(pairs, files, _):
    """Cut inside the last part, before the closing boundary: what a dropped upload delivers."""
    body, boundary = support.multipart(pairs, files)
    return {"Content-Type": f"multipart/form-data; boundary={boundary}"}, body[:-len(f"--{boundary}--\r\n") - 3]


def huge_part_header(pairs, files, _):
    body, boundary = support.multipart(pairs, files, part_header="X-Padding: " + "a" * MiB)
    return {"Content-Type": f"multipart/form-data; boundary={boundary}"}, body


FORM_BODY_CASES = {
    "oversize": [("urlencoded body over 1 MiB", oversize_form, 413), ("multipart body over 5 MiB", oversize_multipart, 413)],
    "multipart": [("multipart with an empty boundary", empty_boundary, None), ("multipart without a boundary", missing_boundary, None),
                  ("multipart with an 80-character boundary", long_boundary, None), ("truncated multipart", truncated_multipart, None),
                  ("multipart with a 1 MiB part header", huge_part_header, None)],
}


def broken(value, bad):
    """The valid value with the bad character after it, so a field that cuts at the bad byte
    (C strings, bcrypt) is left holding the valid value and says so by accepting it."""
    return value.encode() + bad if isinstance(bad, bytes) else value + bad


def replaced(pairs, name, value, linked=()):
    names = {name, *linked} if name in linked else {name}
    return [(key, value if key in names else old) for key, old in pairs]


class JSONCases:
    """The ways to break a JSON body, found on a sample of it, as (label, break, expected status).
    `break` takes a fresh valid body of the same shape and returns the bytes to send."""

    def __init__(self, sample):
        self.sample = sample

    def all(self, category):
        return list(getattr(self, category)())

    def oversize(self):
        yield "JSON body over 1 MiB", lambda body: dumps({**body, "padding": "a" * (MiB + 1024)}), 413

    def malformed(self):
        fixed = [("a JSON array instead of an object", b"[]"), ("a JSON string instead of an object", b'"text"'),
                 ("JSON null", b"null"), ("a JSON number", b"42"), ("not JSON", b"name=x"),
                 ("10,000 nested arrays", b"[" * 10000 + b"]" * 10000), ("10,000 unclosed arrays", b"[" * 10000),
                 ("10,000 nested objects", b'{"a":' * 10000 + b"1" + b"}" * 10000)]
        for label, sent in fixed:
            yield label, lambda body, sent=sent: sent, None
        yield "truncated JSON", lambda body: dumps(body)[:-5], None
        yield "invalid UTF-8 outside strings", lambda body: dumps(body)[:-1] + b"\xff}", None

    def wrong_types(self):
        for path, value in leaves(self.sample):
            for wrong in wrong_types(value):
                yield f"{dotted(path)} = {json.dumps(wrong)}", lambda body, p=path, w=wrong: dumps(set_at(body, p, w)), None

    def text(self):
        for path, value in leaves(self.sample):
            if isinstance(value, str):
                for name, bad in BAD_TEXT:
                    yield f"{dotted(path)} + {name}", lambda body, p=path, b=bad: dumps_with(body, p, b), None

    def ids(self):
        for path, value in leaves(self.sample):
            if is_id(path, value):
                for bad in BAD_IDS:
                    yield f"{dotted(path)} = {bad}", lambda body, p=path, b=int(bad): dumps(set_at(body, p, b)), None


def dumps(value):
    return json.dumps(value).encode()


def dumps_with(body, path, bad):
    """JSON with `bad` appended to one string; raw bytes are spliced in after encoding, since
    invalid UTF-8 cannot be written through json.dumps."""
    value = get_at(body, path)
    if not isinstance(bad, bytes):
        return dumps(set_at(body, path, value + bad))
    marker = "\ue000robustness\ue000"
    return json.dumps(set_at(body, path, value + marker), ensure_ascii=False).encode().replace(marker.encode(), bad)


def leaves(value, path=()):
    """Every member and element of a JSON value, containers too, with its path."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield path + (key,), item
        yield from leaves(item, path + (key,))


def get_at(body, path):
    for key in path:
        body = body[key]
    return body


def set_at(body, path, value):
    changed = copy.deepcopy(body)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return changed


def dotted(path):
    return "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path).lstrip(".")


def is_id(path, value):
    return isinstance(value, int) and not isinstance(value, bool) and str(path[-1]).lower().endswith("id")


def wrong_types(value):
    """JSON values of the wrong type for a member holding `value`."""
    if isinstance(value, bool):
        return ["true", 1]
    if isinstance(value, int):
        return [str(value), True, 1.5]
    if isinstance(value, float):
        return [str(value), True]
    if isinstance(value, str):
        return [1, True, [], {}]
    if isinstance(value, dict):
        return ["x", [], 1]
    if isinstance(value, list):
        elements = [1, "x", None, True]
        kinds = {type(item) for item in value}
        return ["x"] + [[element] for element in elements if type(element) not in kinds]
    return []


# MARK: the test cases


class ConsoleWithSeeds(unittest.TestCase):
    """A console with its seeds, an admin browser and an admin API token."""

    @classmethod
    def setUpClass(cls):
        cls.console = support.Console().with_users()
        cls.token = cls.console.create_token("admin")
        cls.console.start()
        cls.api = support.api_client(cls.token)
        cls.admin = support.Admin(cls.console)
        cls.seeds = Seeds(cls.console, cls.api, cls.admin)
        cls.seeds.ensure()
        cls.openapi = requests.get(cls.console.url("/api/openapi.json"), timeout=TIMEOUT).json()

    @classmethod
    def tearDownClass(cls):
        cls.console.stop()

    # forms

    def open_form(self, route):
        """GETs the route's page as its account and fills in its form with the valid values."""
        self.seeds.ensure()
        values = {**self.seeds, **route.params, "n": self.seeds.unique()}
        if route.account == "admin":
            page = self.admin.get(route.page.format_map(values))
            browser = self.admin.session  # after the GET, which may have signed in again
        else:
            values["email"] = self.seeds.new_account()
            browser = requests.Session() if route.account == "signed-out" else support.sign_in(self.console, values["email"])
            page = browser.get(self.console.url(route.page.format_map(values)), timeout=TIMEOUT)
        self.assertEqual(page.status_code, 200, f"its page {route.page} answered {page.status_code}")
        form = self.find_form(page.text, route.action.format_map(values), route)
        pairs = form.pairs()
        for name, value in route.values.items():
            pairs = set_pair(pairs, name, value.format_map(values))
        files = {name: (f"{name}.pem", self.seeds[seed]) for name, seed in route.files.items()}
        return Filled(browser, form, pairs, files, values, route.action.format_map(values))

    def find_form(self, html, action, route):
        for form in support.post_forms(html):
            if form.action == action and all(
                    form.field(name) is not None and (value is None or form.field(name).value == value) for name, value in route.pick.items()):
                return form
        self.fail(f"no form posting to {action} on {route.page}")

    def form_probes(self, route, category):
        """The broken requests of one category for one form route, built one at a time because
        each needs a fresh page (a fresh CSRF token, the current base version)."""
        if category in FORM_BODY_CASES:
            for name, build, expect in FORM_BODY_CASES[category]:
                filled = self.open_form(route)
                yield filled.probe(f"{route.label} · {name}", *build(filled.pairs, filled.files, filled.form.multipart), expect=expect)
        elif category == "text":
            for field_name, (name, bad) in itertools.product(self.text_fields(route), BAD_TEXT):
                filled = self.open_form(route)
                value = broken(dict(filled.pairs).get(field_name, ""), bad)
                yield filled.probe(f"{route.label} · {field_name} + {name}", *filled.encoded(replaced(filled.pairs, field_name, value, route.linked)))
        elif category == "ids":
            yield from self.form_id_probes(route)

    def text_fields(self, route):
        if route.fields is not None:
            return route.fields
        return [f.name for f in self.open_form(route).form.fields if f.is_text and f.name not in route.linked[1:]]

    def form_id_probes(self, route):
        sample = self.open_form(route)
        path_ids = [name for name in PLACEHOLDER.findall(route.action) if str(sample.values.get(name, "")).isdigit()]
        for name, bad in itertools.product(path_ids, BAD_IDS):
            filled = self.open_form(route)
            yield filled.probe(f"{route.label} · path {{{name}}} = {bad}", *filled.encoded(filled.pairs),
                               path=route.action.format_map({**filled.values, name: bad}))
        for name, bad in itertools.product([f.name for f in sample.form.fields if f.holds_id], BAD_IDS):
            filled = self.open_form(route)
            yield filled.probe(f"{route.label} · {name} = {bad}", *filled.encoded(replaced(filled.pairs, name, bad)))

    # API

    def api_request(self, operation):
        """The session, headers and path template (seeds filled in) for a valid call."""
        self.seeds.ensure()
        values = {**self.seeds, "n": self.seeds.unique()}
        template = API_TARGETS.get(operation.path, operation.path)
        session = requests.Session() if operation.for_devices else self.api
        headers = {"Content-Type": "application/json"}
        if operation.for_devices:
            headers["Authorization"] = f"Bearer {self.seeds['device_token']}"
        if operation.needs_if_match:
            headers["If-Match"] = self.api.get(self.console.url(template.format_map(values)), timeout=TIMEOUT).headers["ETag"]
        return session, headers, template, values

    def valid_body(self, operation, values):
        build = API_BODIES.get((operation.method, operation.path))
        return build(values, values["n"]) if build else None

    def api_probes(self, operation, category):
        if category == "ids":
            yield from self.api_id_probes(operation)
        if not operation.has_body:
            return
        _, _, _, values = self.api_request(operation)
        for label, breaking, expect in JSONCases(self.valid_body(operation, values)).all(category):
            session, headers, template, values = self.api_request(operation)
            yield Probe(f"{operation.label} · {label}", operation.method, template.format_map(values), headers,
                        breaking(self.valid_body(operation, values)), session, expect)

    def api_id_probes(self, operation):
        integer_params = [p["name"] for p in operation.spec.get("parameters", [])
                          if p.get("in") == "path" and p.get("schema", {}).get("type") == "integer"]
        for name, bad in itertools.product(integer_params, BAD_IDS):
            session, headers, template, values = self.api_request(operation)
            body = self.valid_body(operation, values)
            yield Probe(f"{operation.label} · path {{{name}}} = {bad}", operation.method,
                        with_path_id(operation.path, template, values, name, bad), headers,
                        dumps(body) if body is not None else b"", session)

    # checking one case

    def expect_refused(self, probe):
        """Sends one broken request and fails the subtest unless the console refused it with a
        4xx, left the database as it was and still answers its health check."""
        with self.subTest(probe.label):
            before = support.digest(self.console.database)
            outcome = support.send(probe.method, self.console.url(probe.path), probe.session,
                                   headers=probe.headers, data=probe.body)
            if VERBOSE:
                print(f"    {probe.label}: {outcome.summary[:100]}", file=sys.stderr)
            problems = []
            if probe.expect and outcome.status != probe.expect:
                problems.append(f"expected {probe.expect}, got {outcome.summary}")
            elif not probe.expect and not outcome.is_client_error:
                problems.append(f"expected a 4xx, got {outcome.summary}")
            unhealthy = self.console.check_health()
            if unhealthy:
                problems.append(unhealthy)
            changed = support.changed_tables(before, support.digest(self.console.database))
            if changed:
                problems.append(f"database changed: {', '.join(changed)}")
            if problems:
                self.fail("; ".join(problems))


def set_pair(pairs, name, value):
    """Sets a field to one value, where it was or at the end."""
    if not any(key == name for key, _ in pairs):
        return pairs + [(name, value)]
    result, done = [], False
    for key, old in pairs:
        if key == name:
            if not done:
                result.append((name, value))
                done = True
        else:
            result.append((key, old))
    return result


def with_path_id(openapi_path, template, values, name, bad):
    """The target path with the segment of OpenAPI parameter `name` replaced by `bad`."""
    return "/".join(bad if spec == "{" + name + "}" else concrete.format_map(values)
                    for spec, concrete in zip(openapi_path.split("/"), template.split("/")))


class MalformedFormsTest(ConsoleWithSeeds):
    """Every page form, broken one way at a time."""

    def run_category(self, category):
        for route in FORM_ROUTES:
            # A route whose page or form cannot be set up fails alone; the others still run.
            with self.subTest(route.label):
                for probe in self.form_probes(route, category):
                    self.expect_refused(probe)

    def test_oversize_bodies_get_413(self):
        self.run_category("oversize")

    def test_malformed_multipart_is_refused(self):
        self.run_category("multipart")

    def test_control_characters_and_invalid_utf8_are_refused(self):
        self.run_category("text")

    def test_negative_and_zero_ids_are_refused(self):
        self.run_category("ids")


class MalformedJSONTest(ConsoleWithSeeds):
    """Every API operation of the OpenAPI document, broken one way at a time."""

    def run_category(self, category):
        for operation in operations(self.openapi):
            with self.subTest(operation.label):
                for probe in self.api_probes(operation, category):
                    self.expect_refused(probe)

    def test_oversize_bodies_get_413(self):
        self.run_category("oversize")

    def test_malformed_json_is_refused(self):
        self.run_category("malformed")

    def test_wrong_json_types_are_refused(self):
        self.run_category("wrong_types")

    def test_control_characters_and_invalid_utf8_are_refused(self):
        self.run_category("text")

    def test_negative_and_zero_ids_are_refused(self):
        self.run_category("ids")


class ValidRequestsTest(ConsoleWithSeeds):
    """The tables the malformed cases are built from: complete, and valid as they stand."""

    def test_every_post_page_route_is_in_the_table(self):
        registered = set()
        for source in glob.glob(os.path.join(support.ROOT, "Sources", "App", "**", "*.swift"), recursive=True):
            with open(source) as swift:
                registered |= {PLACEHOLDER_SWIFT.sub("{}", path) for path in ROUTES_POST.findall(swift.read())}
        pages = {path for path in registered if not path.startswith("/api/")}
        self.assertTrue(pages, "found no POST route declarations in Sources/App")
        missing = pages - {route.route for route in FORM_ROUTES}
        self.assertFalse(missing, f"POST page routes the malformed-form cases do not cover: {sorted(missing)}")

    def test_every_api_operation_with_a_body_or_parameters_is_in_the_tables(self):
        missing_bodies = [op.label for op in operations(self.openapi) if op.has_body and (op.method, op.path) not in API_BODIES]
        missing_targets = [op.label for op in operations(self.openapi) if PLACEHOLDER.search(op.path) and op.path not in API_TARGETS]
        self.assertFalse(missing_bodies, f"API operations with no valid body in API_BODIES: {missing_bodies}")
        self.assertFalse(missing_targets, f"API paths with no entry in API_TARGETS: {missing_targets}")

    def test_every_api_route_with_a_body_is_described(self):
        """The JSON cases come from the OpenAPI document, so a route missing there goes untested."""
        described = {(method.upper(), path) for path, methods in self.openapi["paths"].items() for method in methods}
        served = set()
        for source in glob.glob(os.path.join(support.ROOT, "Sources", "App", "**", "*.swift"), recursive=True):
            with open(source) as swift:
                served |= {(method.upper(), path) for method, path in ROUTES_WITH_BODY.findall(swift.read()) if path.startswith("/api/")}
        self.assertTrue(served, "found no API route declarations with a body in Sources/App")
        self.assertFalse(served - described, f"API routes missing from /api/openapi.json: {sorted(served - described)}")

    def test_every_payload_kind_has_form_values(self):
        """The kinds come from the console (the API document's list of payload kinds), so a
        new kind without valid form values here fails instead of going untested."""
        kinds = self.openapi["components"]["schemas"]["ImportedProfile"]["properties"]["imported"]["items"]["enum"]
        self.assertTrue(kinds)
        self.assertEqual(sorted(kinds), sorted(PAYLOAD_FORMS), "PAYLOAD_FORMS must have valid values for exactly the console's payload kinds")

    def test_valid_form_requests_are_accepted(self):
        for route in FORM_ROUTES:
            with self.subTest(route.label):
                filled = self.open_form(route)
                self.expect_accepted("POST", filled.path, filled.browser, *filled.encoded(filled.pairs), writes=not route.reads_only)

    def test_valid_api_requests_are_accepted(self):
        for operation in operations(self.openapi):
            if operation.has_body:
                with self.subTest(operation.label):
                    session, headers, template, values = self.api_request(operation)
                    self.expect_accepted(operation.method, template.format_map(values), session, headers,
                                         dumps(self.valid_body(operation, values)))

    def expect_accepted(self, method, path, session, headers, body, writes=True):
        """Accepted means answered below 400 and written: some pages answer a refusal with a
        redirect and a flash message, so the status alone does not tell. A download writes
        nothing, so it must answer 200 instead."""
        before = support.digest(self.console.database, everything=True)
        outcome = support.send(method, self.console.url(path), session, headers=headers, data=body)
        self.assertTrue(isinstance(outcome.status, int) and outcome.status < 400, f"the valid request was refused: {outcome.summary}")
        if not writes:
            self.assertEqual(outcome.status, 200, f"the download was not answered: {outcome.summary}")
            return
        self.assertTrue(support.changed_tables(before, support.digest(self.console.database, everything=True)),
                        f"the valid request changed nothing: {outcome.summary}")


# Routes are declared once in Swift — `SiteRoute<…>(.post, "/path", role: …)`, `OpenRoute(.post, …)`,
# `Endpoint<…>(.put, "/api/…", …)` — so the declarations are what these tests read.
ROUTES_POST = re.compile(r'\(\s*\.post, "(/[^"]+)"')
ROUTES_WITH_BODY = re.compile(r'\(\s*\.(post|put), "(/[^"]+)"')
PLACEHOLDER_SWIFT = re.compile(r"\{[^}]*\}")


if __name__ == "__main__":
    unittest.main()
