"""A device that speaks Apple's MDM protocol to the console, as an iPhone or iPad would.

It enrolls through the real enrollment profile (signature checked, payloads read), gets its
identity certificate from the console's SCEP endpoint with Debian's `scepclient` (an
independent SCEP client), signs every message with a detached CMS signature as devices make
them (`Mdm-Signature`), and answers each command in the shapes Apple's schema gives. Every
command the console sends is checked against the keys and types the schema requires
(`REQUIRED_KEYS`), so a command a real device would refuse fails the test here.
"""

import base64
import os
import plistlib
import subprocess
import tempfile
import uuid

import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.serialization import pkcs7

TIMEOUT = 30

# Apple's schema: each command's required keys and their plist types (the device refuses a
# command without them with CommandFormatError). Types are Python's plistlib types.
REQUIRED_KEYS = {
    "DeviceInformation": {"Queries": list},
    "SecurityInfo": {},
    "InstalledApplicationList": {},
    "ProfileList": {},
    "RestartDevice": {},
    "ShutDownDevice": {},
    "DeviceLock": {},
    "EnableLostMode": {},
    "DisableLostMode": {},
    "DeviceLocation": {},
    "ClearPasscode": {"UnlockToken": bytes},
    "EraseDevice": {},
    "Settings": {"Settings": list},
    "ManagedApplicationFeedback": {"Identifiers": list},
    "ManagedApplicationConfiguration": {"Identifiers": list},
    "InstallProfile": {"Payload": bytes},
    "RemoveProfile": {"Identifier": str},
    "InstallApplication": {},
    "RemoveApplication": {"Identifier": str},
}
# Optional keys with the type they must have when present.
OPTIONAL_KEYS = {
    "DeviceLock": {"Message": str, "PhoneNumber": str},
    "EnableLostMode": {"Message": str, "PhoneNumber": str, "Footnote": str},
    "ManagedApplicationFeedback": {"DeleteFeedback": bool},
    "InstalledApplicationList": {"Identifiers": list, "ManagedAppsOnly": bool},
    "ProfileList": {"ManagedOnly": bool},
    "EraseDevice": {"PreserveDataPlan": bool, "DisallowProximitySetup": bool},
    "InstallApplication": {"iTunesStoreID": int, "ManifestURL": str, "Identifier": str, "ManagementFlags": int, "Configuration": dict,
                           "ChangeManagementState": str},
}


def command_problems(envelope):
    """What is wrong with a command envelope as the console sent it; empty when nothing is."""
    problems = []
    if not isinstance(envelope.get("CommandUUID"), str) or not envelope["CommandUUID"]:
        problems.append("CommandUUID is missing or not a string")
    command = envelope.get("Command")
    if not isinstance(command, dict):
        return problems + ["Command is missing or not a dictionary"]
    kind = command.get("RequestType")
    if kind not in REQUIRED_KEYS:
        return problems + [f"RequestType {kind!r} is not one this device knows"]
    for key, kind_of in REQUIRED_KEYS[kind].items():
        if not isinstance(command.get(key), kind_of):
            problems.append(f"{kind}: {key} is required as {kind_of.__name__}, got {type(command.get(key)).__name__}")
    for key, kind_of in OPTIONAL_KEYS.get(kind, {}).items():
        if key in command and not isinstance(command[key], kind_of):
            problems.append(f"{kind}: {key} must be {kind_of.__name__}")
    if kind == "Settings":
        for item in command["Settings"]:
            if not isinstance(item, dict) or not isinstance(item.get("Item"), str):
                problems.append("Settings: each item needs Item")
            elif item["Item"] == "ApplicationConfiguration" and not isinstance(item.get("Identifier"), str):
                problems.append("Settings: ApplicationConfiguration needs Identifier")
    if kind == "DeviceInformation" and not all(isinstance(query, str) for query in command["Queries"]):
        problems.append("DeviceInformation: Queries must be strings")
    return problems


def unsigned_profile(signed):
    """The XML inside a signed profile, after checking that the signature matches it."""
    with tempfile.NamedTemporaryFile(suffix=".der") as signed_file, tempfile.NamedTemporaryFile(suffix=".xml") as content:
        signed_file.write(signed)
        signed_file.flush()
        subprocess.run(["openssl", "cms", "-verify", "-noverify", "-inform", "DER", "-in", signed_file.name, "-out", content.name],
                       check=True, capture_output=True)
        with open(content.name, "rb") as unsigned:
            return unsigned.read()


class MDMDevice:
    """One device: its identity, what it reports about itself, and what it was sent."""

    def __init__(self, serial=None, udid=None, product="iPad13,18", os_version="17.5.1", name="Front desk iPad", supervised=True,
                 digest=hashes.SHA256()):
        self.serial = serial or ("F" + uuid.uuid4().hex[:10].upper())
        self.udid = udid or str(uuid.uuid4()).upper()
        self.product = product
        self.os_version = os_version
        self.name = name
        self.supervised = supervised
        self.digest = digest
        self.folder = tempfile.mkdtemp(prefix="mdm-device-")
        self.certificate = self.key = None
        self.push_token = os.urandom(32)
        self.push_magic = str(uuid.uuid4()).upper()
        self.unlock_token = os.urandom(48)
        self.received = []
        self.apps = [{"Identifier": "com.example.kiosk", "Name": "Kiosk", "ShortVersion": "2.1", "Version": "210"}]
        # What each managed app wrote to its feedback dictionary.
        self.feedback = {"com.example.kiosk": {"sessionsToday": 42, "lastError": "printer offline", "paperLow": True}}
        # The profiles MDM installed, by PayloadIdentifier, as the device holds them.
        self.profiles = {}
        # Each managed app's configuration (com.apple.configuration.managed), by bundle ID.
        self.app_configurations = {}
        # Where InstallApplication finds apps: the App Store by store ID, in-house builds by
        # manifest address; each an InstalledApplicationList entry.
        self.app_store = {}
        self.manifests = {}
        # Apps MDM manages, by bundle ID, with the ManagementFlags they came with.
        self.managed_apps = {}

    # MARK: enrollment

    def download_profile(self, profile_url):
        answer = requests.get(profile_url, timeout=TIMEOUT)
        answer.raise_for_status()
        if answer.headers.get("Content-Type") != "application/x-apple-aspen-config":
            raise AssertionError(f"the profile came as {answer.headers.get('Content-Type')}")
        profile = plistlib.loads(unsigned_profile(answer.content))
        payloads = {payload["PayloadType"]: payload for payload in profile["PayloadContent"]}
        self.mdm_payload = payloads["com.apple.mdm"]
        # The profile as iOS lists it: by its own identifier, not its payloads'.
        self.enrollment_identifier = profile["PayloadIdentifier"]
        self.enrolled = True
        self.scep_payload = payloads["com.apple.security.scep"]
        return profile

    def get_identity(self, challenge=None):
        """Asks the profile's SCEP endpoint for a certificate, as the device's SCEP client does.
        Answers scepclient's exit status and output (a refused request exits non-zero)."""
        scep = self.scep_payload["PayloadContent"]
        key_path, certificate_path = os.path.join(self.folder, "key.pem"), os.path.join(self.folder, "cert.pem")
        result = subprocess.run(["scepclient", f"-server-url={scep['URL']}", f"-challenge={challenge or scep['Challenge']}",
                                 f"-private-key={key_path}", f"-certificate={certificate_path}", f"-cn={self.serial}",
                                 f"-keySize={scep.get('Keysize', 2048)}"],
                                capture_output=True, text=True, timeout=TIMEOUT)
        if result.returncode == 0 and os.path.exists(certificate_path):
            self.use_identity(open(certificate_path, "rb").read(), open(key_path, "rb").read())
        return result

    def use_identity(self, certificate_pem, key_pem):
        self.certificate = x509.load_pem_x509_certificate(certificate_pem)
        self.key = serialization.load_pem_private_key(key_pem, password=None)

    def enroll(self, profile_url):
        """The whole enrollment: profile, SCEP, Authenticate, TokenUpdate."""
        self.download_profile(profile_url)
        result = self.get_identity()
        if result.returncode != 0:
            raise AssertionError(f"SCEP failed: {result.stdout}{result.stderr}")
        for answer in (self.authenticate(), self.token_update()):
            if answer.status_code != 200:
                raise AssertionError(f"check-in answered {answer.status_code}: {answer.text}")

    # MARK: messages

    def signature(self, body, certificate=None, key=None):
        """Base64 of a detached CMS signature over the body, as devices make them: SHA-256 by
        Python's cryptography, or SHA-1 (which it no longer makes) by the openssl command."""
        if isinstance(self.digest, hashes.SHA1):
            return self.openssl_signature(body, certificate or self.certificate, key or self.key)
        signed = (pkcs7.PKCS7SignatureBuilder().set_data(body)
                  .add_signer(certificate or self.certificate, key or self.key, self.digest)
                  .sign(serialization.Encoding.DER, [pkcs7.PKCS7Options.DetachedSignature, pkcs7.PKCS7Options.Binary]))
        return base64.b64encode(signed).decode()

    def openssl_signature(self, body, certificate, key):
        paths = [os.path.join(self.folder, name) for name in ("signer.pem", "signer.key", "body")]
        open(paths[0], "wb").write(certificate.public_bytes(serialization.Encoding.PEM))
        open(paths[1], "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                     serialization.NoEncryption()))
        open(paths[2], "wb").write(body)
        signed = subprocess.run(["openssl", "cms", "-sign", "-binary", "-md", "sha1", "-outform", "DER", "-signer", paths[0],
                                 "-inkey", paths[1], "-in", paths[2]], check=True, capture_output=True).stdout
        return base64.b64encode(signed).decode()

    def send(self, url, message, signature=True, body=None):
        body = body if body is not None else plistlib.dumps(message, fmt=plistlib.FMT_XML)
        headers = {"Content-Type": "application/x-apple-aspen-mdm-checkin" if url.endswith("checkin") else "application/x-apple-aspen-mdm"}
        if signature is True:
            headers["Mdm-Signature"] = self.signature(body)
        elif signature:
            headers["Mdm-Signature"] = signature
        return requests.put(url, data=body, headers=headers, timeout=TIMEOUT)

    def check_in(self, message, **options):
        return self.send(self.mdm_payload.get("CheckInURL", self.mdm_payload["ServerURL"]), message, **options)

    def authenticate(self, **options):
        return self.check_in({"MessageType": "Authenticate", "Topic": self.mdm_payload["Topic"], "UDID": self.udid,
                              "SerialNumber": self.serial, "ProductName": self.product, "OSVersion": self.os_version,
                              "BuildVersion": "21F90"}, **options)

    def token_update(self, **options):
        return self.check_in({"MessageType": "TokenUpdate", "Topic": self.mdm_payload["Topic"], "UDID": self.udid,
                              "Token": self.push_token, "PushMagic": self.push_magic, "UnlockToken": self.unlock_token}, **options)

    def check_out(self, **options):
        return self.check_in({"MessageType": "CheckOut", "Topic": self.mdm_payload["Topic"], "UDID": self.udid}, **options)

    def report(self, status="Idle", command_uuid=None, extra=None, **options):
        """One turn on the command endpoint: the answer's command (checked), or None."""
        message = {"Status": status, "UDID": self.udid}
        if command_uuid:
            message["CommandUUID"] = command_uuid
        message.update(extra or {})
        answer = self.send(self.mdm_payload["ServerURL"], message, **options)
        if answer.status_code != 200:
            raise AssertionError(f"the command endpoint answered {answer.status_code}: {answer.text}")
        if not answer.content:
            return None
        envelope = plistlib.loads(answer.content)
        problems = command_problems(envelope)
        if problems:
            raise AssertionError(f"the console sent a command a device would refuse: {problems}\n{answer.text}")
        self.received.append(envelope)
        return envelope

    def report_status_answer(self, status="Idle", command_uuid=None, **options):
        """The command endpoint's answer to a report, unchecked."""
        message = {"Status": status, "UDID": self.udid}
        if command_uuid:
            message["CommandUUID"] = command_uuid
        return self.send(self.mdm_payload["ServerURL"], message, **options)

    def report_status(self, status="Idle", **options):
        return self.report_status_answer(status, **options).status_code

    def answer(self, envelope):
        """What a device reports after running the command: Acknowledged with Apple's shapes."""
        command = envelope["Command"]
        kind = command["RequestType"]
        extra = {}
        if kind == "DeviceInformation":
            known = {"DeviceName": self.name, "OSVersion": self.os_version, "BuildVersion": "21F90", "ModelName": "iPad",
                     "ProductName": self.product, "SerialNumber": self.serial, "IsSupervised": self.supervised,
                     "DeviceCapacity": 64.0, "AvailableDeviceCapacity": 41.5, "BatteryLevel": 0.82, "UDID": self.udid}
            extra["QueryResponses"] = {query: known[query] for query in command["Queries"] if query in known}
        elif kind == "SecurityInfo":
            extra["SecurityInfo"] = {"PasscodePresent": True, "PasscodeCompliant": True, "HardwareEncryptionCaps": 3}
        elif kind == "InstalledApplicationList":
            extra["InstalledApplicationList"] = self.apps
        elif kind == "ManagedApplicationFeedback":
            extra["ManagedApplicationFeedback"] = [{"Identifier": identifier, "Feedback": self.feedback.get(identifier, {})}
                                                   for identifier in command["Identifiers"] if identifier in self.feedback]
            if command.get("DeleteFeedback"):
                self.feedback = {}
        elif kind == "ProfileList":
            extra["ProfileList"] = [{"PayloadIdentifier": self.enrollment_identifier, "PayloadDisplayName": "Device management",
                                     "IsManaged": True, "PayloadContent": []}] + [
                {"PayloadIdentifier": identifier, "PayloadUUID": profile["PayloadUUID"], "PayloadDisplayName": profile.get("PayloadDisplayName", ""),
                 "IsManaged": True, "PayloadContent": [{key: payload[key] for key in ("PayloadType", "PayloadVersion", "PayloadIdentifier", "PayloadUUID")}
                                                       for payload in profile["PayloadContent"]]}
                for identifier, profile in sorted(self.profiles.items())]
        elif kind == "Settings":
            installed = {app["Identifier"] for app in self.apps}
            for item in command["Settings"]:
                if item["Item"] != "ApplicationConfiguration":
                    continue
                if item["Identifier"] not in installed:
                    return self.report("Error", envelope["CommandUUID"], {"ErrorChain": [
                        {"ErrorCode": 12082, "ErrorDomain": "MCMDMErrorDomain", "LocalizedDescription": f"{item['Identifier']} is not a managed app."}]})
                if "Configuration" in item:
                    self.app_configurations[item["Identifier"]] = item["Configuration"]
                else:
                    self.app_configurations.pop(item["Identifier"], None)
        elif kind == "InstallApplication":
            refusal, state = self.install_app(command)
            if refusal:
                return self.report("Error", envelope["CommandUUID"], {"ErrorChain": [
                    {"ErrorCode": 12024, "ErrorDomain": "MCMDMErrorDomain", "LocalizedDescription": refusal}]})
            extra.update({"Identifier": state[0], "State": state[1]})
        elif kind == "RemoveApplication":
            if command["Identifier"] not in self.managed_apps:
                return self.report("Error", envelope["CommandUUID"], {"ErrorChain": [
                    {"ErrorCode": 12027, "ErrorDomain": "MCMDMErrorDomain", "LocalizedDescription": f"{command['Identifier']} is not a managed app."}]})
            self.remove_app(command["Identifier"])
        elif kind == "RemoveProfile" and command["Identifier"] == self.enrollment_identifier:
            # The MDM profile goes: with it every profile MDM installed and the managed apps
            # that were to go with management; the device checks out and says nothing more.
            self.profiles = {}
            for bundle, flags in list(self.managed_apps.items()):
                if flags["ManagementFlags"] & 1:
                    self.remove_app(bundle)
            self.managed_apps = {}
            self.enrolled = False
            self.check_out()
            return None
        elif kind in ("InstallProfile", "RemoveProfile"):
            refusal = self.install(command["Payload"]) if kind == "InstallProfile" else self.remove(command["Identifier"])
            if refusal:
                return self.report("Error", envelope["CommandUUID"], {"ErrorChain": [
                    {"ErrorCode": 4001, "ErrorDomain": "MCInstallationErrorDomain", "LocalizedDescription": refusal}]})
        return self.report("Acknowledged", envelope["CommandUUID"], extra)

    def install(self, signed):
        """Installs a profile as iOS does, replacing one with the same identifier; the reason it
        refuses, or None."""
        profile = plistlib.loads(unsigned_profile(signed))
        if profile.get("PayloadType") != "Configuration" or not profile.get("PayloadIdentifier"):
            return "The profile is not a configuration profile."
        for payload in profile.get("PayloadContent", []):
            if payload.get("PayloadType") == "com.apple.app.lock":
                if not self.supervised:
                    return "Single App Mode can only be installed on supervised devices."
                if payload["App"]["Identifier"] not in {app["Identifier"] for app in self.apps}:
                    return f"The app {payload['App']['Identifier']} is not installed: locking into it would leave the device unusable."
        self.profiles[profile["PayloadIdentifier"]] = profile
        return None

    def install_app(self, command):
        """Runs InstallApplication as iOS does: one of a store ID, a manifest address, or the
        identifier of an app already here to take over. Answers (refusal, None) or (None,
        (bundle ID, State))."""
        sources = [key for key in ("iTunesStoreID", "ManifestURL", "Identifier") if key in command]
        if len(sources) != 1:
            return f"Give one of iTunesStoreID, ManifestURL or Identifier, not {sources}.", None
        installed = {app["Identifier"]: app for app in self.apps}
        if "Identifier" in command:
            if command.get("ChangeManagementState") != "Managed" or command["Identifier"] not in installed:
                return f"{command['Identifier']} is not on the device to take over.", None
            app = installed[command["Identifier"]]
        else:
            app = (self.app_store.get(command["iTunesStoreID"]) if "iTunesStoreID" in command else self.manifests.get(command["ManifestURL"]))
            if app is None:
                return "The app could not be found.", None
        if command.get("ManagementFlags", 0) not in (0, 1, 4, 5):
            return f"ManagementFlags {command['ManagementFlags']} is not 1, 4 or 5.", None
        bundle = app["Identifier"]
        if bundle not in installed:
            self.apps.append(dict(app))
        self.managed_apps[bundle] = {"ManagementFlags": command.get("ManagementFlags", 0)}
        if "Configuration" in command:
            self.app_configurations[bundle] = command["Configuration"]
        return None, (bundle, "Managed")

    def remove_app(self, bundle):
        self.apps = [app for app in self.apps if app["Identifier"] != bundle]
        self.managed_apps.pop(bundle, None)
        self.app_configurations.pop(bundle, None)

    def remove(self, identifier):
        if identifier not in self.profiles:
            return f"The profile {identifier} is not installed."
        del self.profiles[identifier]
        return None

    def payloads(self, payload_type):
        """Every installed payload of a type, across the profiles the device holds."""
        return [payload for profile in self.profiles.values() for payload in profile["PayloadContent"] if payload["PayloadType"] == payload_type]

    def drain(self, limit=50):
        """Says Idle and answers every command until nothing is left; answers what it ran."""
        ran = []
        command = self.report("Idle")
        while command is not None and len(ran) < limit:
            ran.append(command["Command"]["RequestType"])
            command = self.answer(command)
        return ran

