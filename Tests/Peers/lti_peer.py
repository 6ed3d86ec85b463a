"""The independent LTI 1.1 implementation the LTI tests compare against: Python's `lti`
package (pinned, with oauthlib and requests-oauthlib under it). One JSON command on stdin, one
JSON answer on stdout.

Commands:
  consumer_launch  {url, key, secret, params, signature_method, timestamp}: lti.ToolConsumer
                   signs a launch (at `timestamp` when given); answers {body} (the form, urlencoded).
  provider_verify  {url, key, secret, body, seen_nonces}: lti.ToolProvider verifies a launch
                   (its oauthlib endpoint, with a validator that knows key and secret and refuses
                   the nonces in seen_nonces); answers {valid, params, is_instructor, is_student,
                   is_outcome_service, is_launch_request, is_content_request}.
  outcome_sign     {url, key, secret, sourcedid, operation, score, result_data}: lti.OutcomeRequest
                   builds the POX XML, signed as its post_outcome_request signs it (requests-oauthlib,
                   header, body hash); answers {url, headers, body}.
  outcome_post     same input: lti.OutcomeRequest posts it; answers {status, code_major, description,
                   score}.
  outcome_check    {url, key, secret, method, headers, body}: oauthlib verifies the signature of a
                   grade, hashlib its oauth_body_hash, lti.OutcomeRequest reads its XML; answers
                   {valid, body_hash_matches, operation, sourcedid, score}.
"""

import base64
import hashlib
import json
import sys
from urllib.parse import parse_qsl

from oauthlib.oauth1 import RequestValidator, SignatureOnlyEndpoint
from oauthlib.oauth1.rfc5849 import utils as oauth_utils
import requests
from requests_oauthlib import OAuth1
from requests_oauthlib.oauth1_auth import SIGNATURE_TYPE_AUTH_HEADER

from lti import OutcomeRequest, ToolConsumer, ToolProvider


class Validator(RequestValidator):
    """Knows one consumer; refuses the nonces it is told were seen."""

    def __init__(self, key, secret, seen=()):
        super().__init__()
        self.key, self.secret, self.seen = key, secret, set(seen)

    enforce_ssl = False

    def check_client_key(self, client_key):
        return True

    def check_nonce(self, nonce):
        return True

    @property
    def dummy_client(self):
        return "dummy-client"

    def validate_client_key(self, client_key, request):
        return client_key == self.key

    def get_client_secret(self, client_key, request):
        return self.secret if client_key == self.key else "dummy-secret"

    def validate_timestamp_and_nonce(self, client_key, timestamp, nonce, request, request_token=None, access_token=None):
        if nonce in self.seen:
            return False
        self.seen.add(nonce)
        return True


def consumer_launch(command):
    consumer = ToolConsumer(command["key"], command["secret"], params=dict(command["params"]), launch_url=command["url"])
    options = {"signature_method": command.get("signature_method", "HMAC-SHA1")}
    if command.get("timestamp"):
        options["timestamp"] = str(command["timestamp"])
    request = consumer.generate_launch_request(**options)
    body = request.body.decode() if isinstance(request.body, bytes) else request.body
    return {"body": body}


def provider_verify(command):
    params = dict(parse_qsl(command["body"], keep_blank_values=True))
    provider = ToolProvider.from_unpacked_request(
        command["secret"], params, command["url"], {"Content-Type": "application/x-www-form-urlencoded"})
    valid = provider.is_valid_request(Validator(command["key"], command["secret"], command.get("seen_nonces", [])))
    return {
        "valid": bool(valid),
        "params": provider.to_params(),
        "is_instructor": bool(provider.is_instructor()),
        "is_student": bool(provider.is_student()),
        "is_outcome_service": bool(provider.is_outcome_service()),
        "is_launch_request": bool(provider.is_launch_request()),
        "is_content_request": bool(provider.is_content_request()),
    }


def outcome_request(command):
    request = OutcomeRequest({
        "consumer_key": command["key"], "consumer_secret": command["secret"],
        "lis_outcome_service_url": command["url"], "lis_result_sourcedid": command["sourcedid"],
    })
    request.operation = command["operation"]
    if command.get("score") is not None:
        request.score = command["score"]
    if command.get("result_data"):
        request.result_data = command["result_data"]
    return request


def outcome_sign(command):
    request = outcome_request(command)
    auth = OAuth1(command["key"], command["secret"], signature_type=SIGNATURE_TYPE_AUTH_HEADER, force_include_body=True)
    prepared = requests.Request(
        "POST", command["url"], data=request.generate_request_xml(), headers={"Content-type": "application/xml"}, auth=auth).prepare()
    body = prepared.body.decode() if isinstance(prepared.body, bytes) else prepared.body
    headers = {name: (value.decode() if isinstance(value, bytes) else value) for name, value in prepared.headers.items()}
    return {"url": prepared.url, "headers": headers, "body": body}


def outcome_post(command):
    request = outcome_request(command)
    operation = command["operation"]
    if operation == "replaceResult":
        response = request.post_replace_result(command["score"], result_data=command.get("result_data"))
    elif operation == "readResult":
        response = request.post_read_result()
    else:
        response = request.post_delete_result()
    text = lambda value: None if value is None else str(value)
    return {
        "status": response.response_code, "code_major": text(response.code_major), "description": text(response.description),
        "score": text(response.score),
    }


def outcome_check(command):
    headers = command["headers"]
    body = command["body"]
    endpoint = SignatureOnlyEndpoint(Validator(command["key"], command["secret"]))
    valid, _ = endpoint.validate_request(command["url"], command["method"], body, headers)
    authorization = next(value for name, value in headers.items() if name.lower() == "authorization")
    fields = {name: oauth_utils.unescape(value) for name, value in oauth_utils.parse_authorization_header(authorization)}
    expected = base64.b64encode(hashlib.sha1(body.encode()).digest()).decode()
    parsed = OutcomeRequest()
    parsed.process_xml(body.encode())
    return {
        "valid": bool(valid), "body_hash_matches": fields.get("oauth_body_hash") == expected,
        "operation": parsed.operation, "sourcedid": str(parsed.lis_result_sourcedid) if parsed.lis_result_sourcedid is not None else None,
        "score": parsed.score,
    }


COMMANDS = {
    "consumer_launch": consumer_launch, "provider_verify": provider_verify, "outcome_sign": outcome_sign,
    "outcome_post": outcome_post, "outcome_check": outcome_check,
}

if __name__ == "__main__":
    command = json.load(sys.stdin)
    json.dump(COMMANDS[command["command"]](command), sys.stdout)
