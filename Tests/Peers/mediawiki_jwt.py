"""Issues MediaWiki-style identify JWTs with PyJWT (pinned), an implementation the package did not
write, for the Swift test of MediaWikiIdentity (OAuthNetworkingTests/MediaWikiProfileTests).

Reads a JSON object on stdin: secret and cases, each {claims, key (default: the secret),
algorithm (default HS256)}. Writes a JSON list of the encoded JWTs, in order.
"""
import json
import sys

import jwt

request = json.load(sys.stdin)
tokens = []
for case in request["cases"]:
    algorithm = case.get("algorithm", "HS256")
    key = None if algorithm == "none" else case.get("key", request["secret"])
    tokens.append(jwt.encode(case["claims"], key, algorithm=algorithm))
json.dump(tokens, sys.stdout)
