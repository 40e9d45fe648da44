"""A stand-in for Apple's push service, for the MDM tests: HTTP/2 over TLS that accepts only
the push certificate as the client certificate, checks each request as Apple would (path,
method, apns-topic, the {"mdm": PushMagic} body), writes what it received to a JSON-lines
file, and answers as the script file says for a token: Unregistered, BadDeviceToken, or
TooManyRequests a few times before it delivers.

    python3 apns_standin.py --port P --cert server.crt --key server.key --client-ca push.crt \
        --topic TOPIC --log received.jsonl --script script.json
"""

import argparse
import asyncio
import json
import re
import ssl

from hypercorn.asyncio import serve
from hypercorn.config import Config

PATH = re.compile(r"^/3/device/([0-9a-f]{64})$")


def make_app(topic, log_path, script_path):
    attempts = {}

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                else:
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {name.decode().lower(): value.decode() for name, value in scope["headers"]}
        match = PATH.match(scope["path"])
        problems = []
        if scope["http_version"] != "2":
            problems.append(f"HTTP/{scope['http_version']}, not HTTP/2")
        if scope["method"] != "POST":
            problems.append(f"method {scope['method']}")
        if not match:
            problems.append(f"path {scope['path']}")
        if headers.get("apns-topic") != topic:
            problems.append(f"apns-topic {headers.get('apns-topic')!r}")
        try:
            payload = json.loads(body)
            if set(payload) != {"mdm"} or not isinstance(payload["mdm"], str):
                problems.append(f"body {body!r}")
        except ValueError:
            payload = None
            problems.append(f"body {body!r}")
        token = match.group(1) if match else ""
        with open(script_path) as script_file:
            script = json.load(script_file)
        attempts[token] = attempts.get(token, 0) + 1
        behaviour = script.get(token, "deliver")
        if problems:
            status, reason = 400, "BadRequest"
        elif behaviour == "unregistered":
            status, reason = 410, "Unregistered"
        elif behaviour == "bad-token":
            status, reason = 400, "BadDeviceToken"
        elif behaviour.startswith("busy-") and attempts[token] <= int(behaviour[5:]):
            status, reason = 429, "TooManyRequests"
        else:
            status, reason = 200, None
        with open(log_path, "a") as log:
            log.write(json.dumps({"token": token, "topic": headers.get("apns-topic"), "pushMagic": (payload or {}).get("mdm"),
                                  "status": status, "problems": problems, "attempt": attempts[token]}) + "\n")
        answer = b"" if status == 200 else json.dumps({"reason": reason}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"apns-id", b"00000000-0000-0000-0000-000000000000"), (b"content-length", str(len(answer)).encode())]})
        await send({"type": "http.response.body", "body": answer})

    return app


def main():
    parser = argparse.ArgumentParser()
    for option in ("--port", "--cert", "--key", "--client-ca", "--topic", "--log", "--script"):
        parser.add_argument(option, required=True)
    arguments = parser.parse_args()
    config = Config()
    config.bind = [f"127.0.0.1:{arguments.port}"]
    config.certfile, config.keyfile = arguments.cert, arguments.key
    config.ca_certs = arguments.client_ca
    config.verify_mode = ssl.CERT_REQUIRED
    config.alpn_protocols = ["h2"]
    config.loglevel = "WARNING"
    asyncio.run(serve(make_app(arguments.topic, arguments.log, arguments.script), config))


if __name__ == "__main__":
    main()
