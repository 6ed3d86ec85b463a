"""Checks the X sandbox's answers against X's own OpenAPI specification, with openapi-core.

The sandbox (`tweets sandbox serve --record-exchanges FILE`) appends every answer it sends to
FILE as JSON lines: method, path, query, status, content_type, body (see
Sources/XSandbox/Server/SandboxExchangeLog.swift). For each answer this script finds X's
operation (method and path template) in the vendored specification (Tests/Specs, version
2.166) and validates the status, the content type and the body against that operation's
response schema, with python-openapi's openapi-core: a validator the project did not write.

What is checked, and what is not (each counted in the report, none passed in silence):
- checked: every answer to a path X's specification declares, whole (a scripted fault that
  truncates or resets the body mid-way is checked as the sandbox rendered it: the fault is
  the transport's, not the answer's), and each line of the filtered stream against the
  stream's 200 schema (the stream's head, whose body is those lines, is counted apart);
- not in the spec: the sandbox's own control API (/_control/...), OAuth 1.0a (/oauth/...)
  and OAuth 2.0 (/2/oauth2/token, /i/oauth2/authorize) endpoints, v1.1 (/1.1/...) and any
  other path the specification lacks, listed by method and path;
- sampled: past the first 100 answers of one operation and status in one log, every 25th
  (FIRST_CHECKED, SAMPLE_EVERY below: the cost of a 1,000-page fetch), the others counted;
- not checked: answers a test's script put in place of the sandbox's (an HTML 502, invalid
  JSON, a given body, a redirect: the test's, deliberately outside X's shapes), connections
  reset before any answer, and answers in the post spelling (`--spelling post`: the names of
  X's specification 2.167, which the vendored 2.166 does not have).

Four narrow exceptions (PROBLEM_AS_JSON, RULES_CREATED, UNDECLARED_REQUIRED, PARENT_DISCRIMINATOR
below) name where the specification itself disagrees with X's pages, X's sample code or recorded
real answers, or cannot be followed by a validator, each with its reason; the body is still
checked in each. A fourth (TIMESTAMP_135) names a choice
of the sandbox that no recorded v2 answer backs, marked OPEN in every report that meets it.

Usage:
  openapi_check.py --spec SPEC FILE...   prints the report; exits 1 if an answer is outside
  openapi_check.py --spec SPEC --serve   reads one FILE path a line on stdin and writes one JSON
                                         line per path: {"outside": n, "report": "..."}; one
                                         process (and one load of the spec) for a test run.
  OPENAPI_CHECK_TIMES=FILE               appends the seconds the load and each check took.
"""

import argparse
import base64
import collections
import json
import os
import re
import sys
import time
import urllib.parse

from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse

# A long paged fetch sends the same operation a thousand times over (a 20,000-post archive):
# each of its answers takes the validator some 30 ms, and all of them would cost a test run
# more than the check's whole budget (30 s). So, per log, the first FIRST_CHECKED answers of
# each operation and status are checked, then every SAMPLE_EVERY-th; the others are counted
# in the report as sampled out, never passed in silence.
FIRST_CHECKED = 100
SAMPLE_EVERY = 25

# The longest validator message kept per finding, and the most findings shown per report:
# enough to say what is wrong without burying it.
MAX_MESSAGE = 600
MAX_FINDINGS_SHOWN = 20

# Where X's specification 2.166 is contradicted by X's own pages or sample code, or by recorded
# real answers, the sandbox follows those; each such place is named here, narrowly, with its
# reason, and the answers that take it are counted in the report. The body is still checked
# in each case, against the schema X's answers do fit.

# X's v2 problems (`type`, `title`, `detail`, `status`: a 401, a 429, a 400 invalid-request)
# came as `application/json; charset=utf-8` in every recorded real answer (the 403
# client-forbidden of Tests/XAPITests/Recordings/v2-error-403-client-not-enrolled-app-level.json
# carries that header; the 2021 captures of other clients too), while the specification gives
# `application/json` only its `Error` schema (`code`, `message`) and the problems
# `application/problem+json`. So a problem sent as application/json is validated against the
# specification's `Problem` schema, as if it had come as application/problem+json.
PROBLEM_AS_JSON = "a v2 problem sent as application/json (as in recorded real answers) checked against the spec's Problem schema"

# X answers a POST of stream rules that added any with 201 Created (X's own sample code,
# xdevplatform/Twitter-API-v2-sample-code Filtered-Stream/filtered_stream.py: `if
# response.status_code != 201: raise Exception("Cannot add rules ...")`, and 200 for one that
# only deletes); the specification declares 200 alone. A 201 is checked against the 200 schema.
RULES_CREATED = ("POST", "/2/tweets/search/stream/rules", 201)
RULES_CREATED_WHY = "201 Created for added stream rules (X's sample code) checked against the spec's 200 schema"

# The media upload answers' schemas require properties they do not declare: `meta` of
# MediaUploadResponse and MediaUploadAppendResponse, `type` of ProcessingInfo; X's page
# (x-api/media/quickstart/media-upload-chunked.mdx) shows the answers with `data` alone and
# `processing_info` as `state` and `check_after_secs`. On these operations only, an error that a
# required property is missing which the schema does not declare is not counted.
UNDECLARED_REQUIRED_PATHS = ("/2/media/upload",)
UNDECLARED_REQUIRED_WHY = "a required property the schema does not declare (media upload's meta, processing_info's type; X's page has neither)"

# The activity stream's payload (ActivityStreamingResponsePayload) is a oneOf whose discriminator
# is `"propertyName": "../event_type"`: the payload's type is named by its parent's `event_type`,
# which OpenAPI's discriminator (a property of the object itself) cannot say and no validator
# follows (openapi-core: "does not contain discriminating property '../event_type'"). On that
# operation only, when that is the only finding, the line is checked without its payload against
# the stream's schema, and the payload against the schema the discriminator's own mapping names
# for the line's `event_type` (an event type the mapping lacks is a finding).
PARENT_DISCRIMINATOR = ("GET", "/2/activity/stream", 200)
PARENT_DISCRIMINATOR_SCHEMA = "ActivityStreamingResponsePayload"
PARENT_DISCRIMINATOR_WHY = "the activity stream's payload checked against the schema its ../event_type discriminator maps to (no validator follows ../)"

# Not the specification's fault but a choice of the sandbox, named so that it is not hidden: a
# stale OAuth 1.0a timestamp is answered with X's documented v1.1 body for code 135 on v2 paths
# too, so that a client's clock-skew diagnosis (XError.timestampOutOfBounds, "X's clock is +N
# s") is exercised end to end. Recorded answers show it on v1.1 only (twit, twitteroauth and
# tweepy users' reports); on v2, X may well answer its generic 401 problem, which the
# specification does describe. Only this
# exact body with status 401 is let through.
TIMESTAMP_135 = b'{"errors":[{"code":135,"message":"Timestamp out of bounds."}]}'
TIMESTAMP_135_WHY = "OPEN: the sandbox's v1.1 code 135 body for a stale OAuth 1.0a timestamp on a v2 path (no recorded v2 answer; kept for the clock-skew diagnosis)"


def load(spec_path):
    with open(spec_path, encoding="utf-8") as handle:
        document = json.load(handle)
    # The specification is X's, vendored unchanged; validating the document itself is not this
    # check's business (and takes long for 800 KB).
    # openapi-core reads application/json only; the specification's problems come as
    # application/problem+json, JSON too.
    config = Config(spec_validator_cls=None, extra_media_type_deserializers={"application/problem+json": json.loads})
    api = OpenAPI.from_dict(document, config=config)
    global DOCUMENT
    DOCUMENT = document
    templates = []
    for template, item in document["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        methods = {m.upper() for m in item if m in ("get", "post", "put", "delete", "patch", "head")}
        # A literal segment outranks a parameter: /2/users/me before /2/users/{id}.
        templates.append((template.count("{"), template, re.compile(pattern), methods))
    templates.sort()
    return api, document["info"]["version"], templates


def template_of(templates, method, path):
    """X's path template for `path`, or None when the specification has no such operation."""
    for _, template, pattern, methods in templates:
        if pattern.match(path) and method in methods:
            return template
    return None


def shape(path):
    """A path with its ids and names folded, to group what is not in the spec."""
    path = re.sub(r"/[0-9]+(?=/|$)", "/{id}", path)
    return re.sub(r"^/_control/.*", "/_control/...", path)


def schema_errors(error):
    """The schema errors under openapi-core's wrapper (none for an error of another kind)."""
    found = []
    cause = error
    while cause is not None:
        found.extend(getattr(cause, "schema_errors", []) or [])
        cause = cause.__cause__ or cause.__context__
    return found


def describe(error, errors):
    """The validator's own words: its schema errors with where, or the error itself."""
    if errors:
        text = "; ".join(f"{e.message} at {'/'.join(str(p) for p in e.absolute_path) or '(body)'}" for e in errors[:3])
    else:
        text = f"{type(error).__name__}: {error}"
    return text[:MAX_MESSAGE]


def undeclared_required(schema_error):
    """Whether `schema_error` is a missing required property its schema does not declare."""
    if schema_error.validator != "required":
        return False
    declared = (schema_error.schema or {}).get("properties", {})
    return not any(f"'{name}' is a required property" == schema_error.message for name in declared)


def is_problem(body):
    try:
        value = json.loads(body)
    except ValueError:
        return False
    return isinstance(value, dict) and "type" in value and "title" in value


# The specification as read, for PARENT_DISCRIMINATOR's mapping.
DOCUMENT = None


def parent_discriminated(api, request, status, content_type, body, errors):
    """PARENT_DISCRIMINATOR: None when the line fits that way, else the finding."""
    from openapi_schema_validator import OAS30Validator

    line = json.loads(body)
    data = line.get("data") or {}
    mapping = DOCUMENT["components"]["schemas"][PARENT_DISCRIMINATOR_SCHEMA]["discriminator"]["mapping"]
    target = mapping.get(data.get("event_type"))
    if target is None:
        return f"event_type {data.get('event_type')!r} is not in the discriminator's mapping"
    rest = dict(line, data={k: v for k, v in data.items() if k != "payload"})
    try:
        api.validate_response(request, MockResponse(json.dumps(rest).encode(), status_code=status, content_type=content_type))
    except Exception as error:
        return describe(error, schema_errors(error))
    validator = OAS30Validator({"$ref": target, "components": DOCUMENT["components"]})
    found = list(validator.iter_errors(data.get("payload")))
    if found:
        return "; ".join(f"{e.message[:200]} at data/payload/{'/'.join(str(p) for p in e.absolute_path)}" for e in found[:3])[:MAX_MESSAGE]
    return None


def validate(api, request, response, method, template, status, content_type, body):
    """None when the answer fits X's schema, (why,) when it fits through a named exception, or
    the validator's message."""
    reasons = []
    if status == 401 and body == TIMESTAMP_135:
        return (TIMESTAMP_135_WHY,)
    if (method, template, status) == RULES_CREATED:
        response = MockResponse(body, status_code=200, content_type=content_type)
        reasons.append(RULES_CREATED_WHY)
    try:
        api.validate_response(request, response)
        return (reasons[0],) if reasons else None
    except Exception as error:  # every failure of the validator is a finding, unless excepted
        errors = schema_errors(error)
        if status >= 400 and content_type == "application/json" and is_problem(body):
            try:
                api.validate_response(request, MockResponse(body, status_code=status, content_type="application/problem+json"))
                return (PROBLEM_AS_JSON,)
            except Exception as problem_error:
                error, errors = problem_error, schema_errors(problem_error)
        only_parent = errors and all("discriminating property '../event_type'" in e.message for e in errors)
        if (method, template, status) == PARENT_DISCRIMINATOR and only_parent:
            finding = parent_discriminated(api, request, status, content_type, body, errors)
            return (PARENT_DISCRIMINATOR_WHY,) if finding is None else finding
        if errors and template.startswith(UNDECLARED_REQUIRED_PATHS):
            remaining = [e for e in errors if not undeclared_required(e)]
            if not remaining:
                return (UNDECLARED_REQUIRED_WHY,)
            errors = remaining
        return describe(error, errors)


def check(api, version, templates, records, name):
    checked = 0
    outside = collections.Counter()
    examples = {}
    not_in_spec = collections.Counter()
    unchecked = collections.Counter()
    allowed = collections.Counter()
    seen = collections.Counter()
    for record in records:
        method, path, status = record["method"], record["path"], record["status"]
        if record.get("delivery") == "unreadable":
            # Not an answer the check can read: a failure, since it may hide one outside.
            key = ("the log itself", 0, record["path"])
            outside[key] += 1
            examples.setdefault(key, "(no request)")
            continue
        if record.get("delivery") == "reset" or status == 0:
            unchecked["connection reset before any answer (a scripted fault)"] += 1
            continue
        if record.get("scripted"):
            unchecked[f"scripted by the test ({record['scripted']})"] += 1
            continue
        if record.get("spelling", "tweet") != "tweet":
            unchecked["in the post spelling (X's 2.167 names; the vendored spec is " + version + ")"] += 1
            continue
        template = template_of(templates, method, path)
        if template is None:
            not_in_spec[f"{method} {shape(path)}"] += 1
            continue
        if record.get("stream_line") is None and record.get("body") == "" and template.endswith("/stream") and status == 200:
            unchecked["stream heads (their lines are checked one by one)"] += 1
            continue
        seen[(method, template, status)] += 1
        beyond = seen[(method, template, status)] - FIRST_CHECKED
        if beyond > 0 and beyond % SAMPLE_EVERY != 0:
            unchecked[f"sampled out: {method} {template} {status} past its first {FIRST_CHECKED} (every {SAMPLE_EVERY}th checked)"] += 1
            continue
        body = record["body"].encode("utf-8") if "body" in record else base64.b64decode(record.get("body_base64", ""))
        content_type = (record.get("content_type") or "").split(";")[0].strip() or "application/octet-stream"
        request = MockRequest(
            "https://api.x.com", method, path, args=dict(urllib.parse.parse_qsl(record.get("query", ""), keep_blank_values=True))
        )
        response = MockResponse(body, status_code=status, content_type=content_type)
        checked += 1
        outcome = validate(api, request, response, method, template, status, content_type, body)
        if outcome is None:
            continue
        if isinstance(outcome, tuple):
            allowed[outcome[0]] += 1
            continue
        key = (f"{method} {template}", status, outcome)
        outside[key] += 1
        examples.setdefault(key, f"{method} {path}" + (f"?{record['query']}" if record.get("query") else ""))
    lines = [
        f"openapi_check ({name}): {len(records)} answers; {checked} checked against X's specification {version}, "
        f"{sum(outside.values())} outside X's schemas"
    ]
    if outside:
        lines.append("OUTSIDE X's SCHEMAS (operation, status, the validator's message, an example request):")
        for (operation, status, message), count in outside.most_common(MAX_FINDINGS_SHOWN):
            lines.append(f"  {operation} {status} x{count}: {message}\n    e.g. {examples[(operation, status, message)][:300]}")
        if len(outside) > MAX_FINDINGS_SHOWN:
            lines.append(f"  ... and {len(outside) - MAX_FINDINGS_SHOWN} more kinds")
    if not_in_spec:
        lines.append(
            "not in the spec: " + ", ".join(f"{key} x{count}" for key, count in sorted(not_in_spec.items()))
        )
    if unchecked:
        lines.append("not checked: " + ", ".join(f"{key} x{count}" for key, count in sorted(unchecked.items())))
    if allowed:
        lines.append("allowed by a named exception: " + ", ".join(f"{key} x{count}" for key, count in sorted(allowed.items())))
    return sum(outside.values()), "\n".join(lines)


# What every line of a log holds (SandboxExchangeLog).
REQUIRED_FIELDS = (("method", str), ("path", str), ("status", int))


def read_records(path):
    records = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if not isinstance(record, dict) or not all(isinstance(record.get(k), t) for k, t in REQUIRED_FIELDS):
                    raise ValueError("not an answer: " + ", ".join(k for k, _ in REQUIRED_FIELDS) + " are required")
                records.append(record)
            except ValueError as error:
                # A line cut short (a server killed mid-write) or not the sandbox's: said, not hidden.
                unreadable = f"unreadable line {number} ({str(error)[:100]})"
                records.append({"method": "?", "path": unreadable, "status": 0, "delivery": "unreadable"})
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spec", required=True)
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("files", nargs="*")
    arguments = parser.parse_args()
    started = time.monotonic()
    api, version, templates = load(arguments.spec)
    # OPENAPI_CHECK_TIMES=FILE: how long loading and each check took (seconds, answers), appended
    # to FILE, to measure what the check costs a test run.
    timings = os.environ.get("OPENAPI_CHECK_TIMES")
    if timings:
        with open(timings, "a", encoding="utf-8") as handle:
            handle.write(f"{time.monotonic() - started:.4f} load\n")
    if arguments.serve:
        for line in sys.stdin:
            path = line.strip()
            if not path:
                continue
            started = time.monotonic()
            try:
                records = read_records(path)
                outside, report = check(api, version, templates, records, path)
                answer = {"outside": outside, "report": report}
                if timings:
                    with open(timings, "a", encoding="utf-8") as handle:
                        handle.write(f"{time.monotonic() - started:.4f} {len(records)}\n")
            except Exception as error:
                answer = {"outside": -1, "report": f"openapi_check could not check {path}: {type(error).__name__}: {error}"}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
        return 0
    failed = False
    for path in arguments.files:
        outside, report = check(api, version, templates, read_records(path), path)
        print(report)
        failed = failed or outside > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
