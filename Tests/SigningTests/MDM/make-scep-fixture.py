#!/usr/bin/env python3
"""Makes a real SCEP PKIOperation request with Debian's `scepclient` (package `scep`).

Three modes:

  make-scep-fixture.py fixture [--out DIR]      (DIR defaults to Fixtures/ beside this script)
      Makes a CA with the openssl command (unless DIR/scep-ca.pem and scep-ca-key.pem exist),
      serves GetCACaps/GetCACert from a tiny local server, lets scepclient send its request
      with challenge "fixture-challenge", and saves what the tests read:
        scep-request.der            the PKIOperation body scepclient POSTed
        scep-client-key.pem         scepclient's RSA key (it made it)
        scep-client-signer.pem      the temporary self-signed certificate it signed with
      The local server answers the POST with 503, so scepclient reports failure: expected.

  make-scep-fixture.py relay --folder DIR --ca DER --challenge TEXT
      The round-trip test's helper: the same local server, but the POST body is written to
      DIR/request.der and the answer is whatever appears in DIR/response.der (written by the
      Swift test) within 60 s. Exits with scepclient's status; the issued certificate is
      DIR/client-cert.pem.

  make-scep-fixture.py server --url URL --challenge TEXT [--folder DIR]
      A real server (the console's /mdm/scep endpoint): only scepclient runs, against URL.
      Exits with scepclient's status; the issued certificate is DIR/client-cert.pem.

The flags scepclient needs (see the README beside this script for what it is picky about):
  scepclient -server-url=URL -challenge=TEXT -private-key=KEY -certificate=CERT -cn=NAME
"""
import argparse, http.server, os, shutil, subprocess, sys, tempfile, threading, time, urllib.parse

CAPS = b"POSTPKIOperation\nSHA-256\nAES\nSCEPStandard\nRenewal\n"


def make_ca(out):
    cert, key = os.path.join(out, "scep-ca.pem"), os.path.join(out, "scep-ca-key.pem")
    if os.path.exists(cert) and os.path.exists(key):
        return cert, key
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "3650", "-sha256", "-subj", "/O=Payload Console Tests/CN=SCEP Fixture CA",
                    "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "keyUsage=critical,keyCertSign,cRLSign,digitalSignature,keyEncipherment"],
                   check=True, capture_output=True)
    return cert, key


def der_of(pem_path):
    return subprocess.run(["openssl", "x509", "-in", pem_path, "-outform", "DER"], check=True, capture_output=True).stdout


def serve(ca_der, on_request):
    """A local SCEP server on a free port, in a thread; answers the POST with on_request(body)."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            sys.stderr.write("server: " + (args[0] % args[1:]) + "\n")

        def answer(self, status, content_type, body):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            operation = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query).get("operation", [""])[0]
            if operation == "GetCACaps":
                self.answer(200, "text/plain", CAPS)
            elif operation == "GetCACert":
                self.answer(200, "application/x-x509-ca-cert", ca_der)
            else:
                self.answer(400, "text/plain", b"unknown operation")

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            answer = on_request(body)
            if answer is None:
                self.answer(503, "text/plain", b"fixture saved")
            else:
                self.answer(200, "application/x-pki-message", answer)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/scep" % server.server_address[1]


def scepclient(url, challenge, key, cert, cn="fixture-device"):
    command = ["scepclient", "-server-url=" + url, "-challenge=" + challenge,
               "-private-key=" + key, "-certificate=" + cert, "-cn=" + cn, "-debug"]
    sys.stderr.write("running: " + " ".join(command) + "\n")
    return subprocess.run(command).returncode


def fixture(args):
    out = os.path.abspath(args.out)
    ca_pem, _ = make_ca(out)
    saved = {}
    server, url = serve(der_of(ca_pem), lambda body: saved.setdefault("body", body) and None)
    with tempfile.TemporaryDirectory() as scratch:
        # scepclient makes its key when the file is missing, and writes csr.pem and self.pem
        # (its temporary self-signed certificate) beside it.
        key = os.path.join(scratch, "client-key.pem")
        scepclient(url, "fixture-challenge", key, os.path.join(scratch, "client-cert.pem"))
        server.shutdown()
        if "body" not in saved:
            sys.exit("scepclient sent no PKIOperation")
        shutil.copyfile(key, os.path.join(out, "scep-client-key.pem"))
        shutil.copyfile(os.path.join(scratch, "self.pem"), os.path.join(out, "scep-client-signer.pem"))
    request = os.path.join(out, "scep-request.der")
    with open(request, "wb") as f:
        f.write(saved["body"])
    print("saved", request)


def relay(args):
    folder = os.path.abspath(args.folder)
    with open(args.ca, "rb") as f:
        ca_der = f.read()

    def on_request(body):
        with open(os.path.join(folder, "request.der.part"), "wb") as f:
            f.write(body)
        os.rename(os.path.join(folder, "request.der.part"), os.path.join(folder, "request.der"))
        response = os.path.join(folder, "response.der")
        deadline = time.time() + 300
        while time.time() < deadline:
            if os.path.exists(response):
                with open(response, "rb") as f:
                    return f.read()
            time.sleep(0.05)
        return None

    server, url = serve(ca_der, on_request)
    status = scepclient(url, args.challenge, os.path.join(folder, "client-key.pem"), os.path.join(folder, "client-cert.pem"))
    server.shutdown()
    sys.exit(status)


def real_server(args):
    folder = os.path.abspath(args.folder)
    sys.exit(scepclient(args.url, args.challenge, os.path.join(folder, "client-key.pem"), os.path.join(folder, "client-cert.pem")))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    modes = parser.add_subparsers(dest="mode", required=True)
    m = modes.add_parser("fixture"); m.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "Fixtures"))
    m = modes.add_parser("relay"); m.add_argument("--folder", required=True); m.add_argument("--ca", required=True)
    m.add_argument("--challenge", required=True)
    m = modes.add_parser("server"); m.add_argument("--url", required=True); m.add_argument("--challenge", required=True)
    m.add_argument("--folder", default=".")
    args = parser.parse_args()
    {"fixture": fixture, "relay": relay, "server": real_server}[args.mode](args)
