"""Parses a multipart/form-data body with Python's own `email` package, the independent reader
the Swift multipart tests compare against.

Reads JSON {"content_type", "path"} on stdin (the body is the file at path); writes a JSON
list, one object per part: name, filename, content_type, length and SHA-256 of its content."""
import email.parser
import email.policy
import hashlib
import json
import sys

request = json.load(sys.stdin)
with open(request["path"], "rb") as body:
    raw = b"Content-Type: " + request["content_type"].encode() + b"\r\nMIME-Version: 1.0\r\n\r\n" + body.read()
message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(raw)
if not message.is_multipart() or message.defects:
    sys.exit("not a valid multipart body: %r" % (message.defects,))
parts = []
for part in message.iter_parts():
    content = part.get_payload(decode=True)
    if part.defects:
        sys.exit("a part has defects: %r" % (part.defects,))
    parts.append({
        "name": part.get_param("name", header="content-disposition"),
        "filename": part.get_filename(),
        "content_type": part.get_content_type() if part.get("Content-Type") else None,
        "length": len(content),
        "sha256": hashlib.sha256(content).hexdigest(),
    })
json.dump(parts, sys.stdout)
