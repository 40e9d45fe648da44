"""Schemathesis hooks (loaded through SCHEMATHESIS_HOOKS by test_schemathesis.py).

The device log upload is NDJSON, which schemathesis cannot write by itself: the OpenAPI
document describes the body as the array of its lines, and this writes each item as one line.
A .mobileconfig import is sent as the file's bytes (application/x-apple-aspen-config), which
it does not know either: the generated binary string goes as it is.
"""
import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(context, value):
    items = value if isinstance(value, list) else [value]
    return "".join(json.dumps(item) + "\n" for item in items).encode()


@schemathesis.serializer("application/x-apple-aspen-config")
def mobileconfig(context, value):
    return value if isinstance(value, bytes) else str(value).encode()
