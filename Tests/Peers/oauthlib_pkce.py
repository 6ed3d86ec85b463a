"""oauthlib's own PKCE check, the independent side of the Swift PKCE tests.

Reads a JSON list of {"verifier", "challenge"} on stdin; writes a JSON list of booleans: whether
oauthlib's `code_challenge_method_s256(verifier, challenge)` (the function its authorization
server calls when it redeems a code) accepts the pair."""
import json
import sys

from oauthlib.oauth2.rfc6749.grant_types.authorization_code import code_challenge_method_s256

cases = json.load(sys.stdin)
json.dump([bool(code_challenge_method_s256(case["verifier"], case["challenge"])) for case in cases], sys.stdout)
