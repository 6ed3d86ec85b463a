"""twarc-csv 0.7.2 itself, for `tweets export`'s tests: the table `tweets export` must equal.

Reads one JSON job on stdin and prints one JSON answer on stdout:

- {"action": "pages", "cassettes": [PATH...], "output": PATH}: the response bodies of recorded
  X answers (NetworkClientTesting cassettes) with a `data` of posts, one page per line, as twarc2
  saves them (json.dumps; Python keeps the keys' order), with the `__twarc` object twarc2 adds
  (the request's URL, twarc's version, the time it was retrieved). Answers {"pages": N}.
- {"action": "prepare", "pages": PATH, "flattened": PATH, "without_referenced": PATH}: from X's
  pages, twarc's own flattened posts (`twarc.ensure_flattened`, one per line: `twarc2 flatten`'s
  output) and the same pages without `includes.tweets` (what an archive that does not keep the
  referenced posts holds), leaving out the posts of `drop_ids` (optional: those compliance
  removed). Answers {"posts": N}.
- {"action": "compare", "input": PATH, "ours": PATH, "options": [...]}: runs twarc-csv (its own
  `twarc2 csv` command, with `options`) on `input` and compares its CSV with `ours`, read with
  Python's csv module, cell by cell. Answers {"rows": N, "columns": [...], "difference": null or
  the first differing cell, named by row, post id and column, "same_bytes": whether the two files
  are byte for byte the same (quoting and line ends too)}.
"""

import csv
import json
import logging
import os
import sys
import tempfile

logging.disable(logging.CRITICAL)  # twarc logs a warning per page without includes

import twarc  # noqa: E402
from twarc import ensure_flattened  # noqa: E402
from twarc_csv import csv as twarc_csv_command  # noqa: E402


def pages(job):
    count = 0
    with open(job["output"], "w", encoding="utf8") as out:
        for path in job["cassettes"]:
            with open(path, encoding="utf8") as f:
                cassette = json.load(f)
            for interaction in cassette.get("interactions", []):
                body = interaction.get("response", {}).get("body")
                try:
                    page = json.loads(body) if isinstance(body, str) else body
                except ValueError:
                    continue
                data = page.get("data") if isinstance(page, dict) else None
                posts = data if isinstance(data, list) else [data] if isinstance(data, dict) else []
                if posts and all(isinstance(p, dict) and "text" in p for p in posts):
                    page["__twarc"] = {
                        "url": interaction.get("request", {}).get("url", ""),
                        "version": twarc.version,
                        "retrieved_at": f"2026-11-27T00:00:{count:02d}+00:00",
                    }
                    out.write(json.dumps(page) + "\n")
                    count += 1
    return {"pages": count}


def prepare(job):
    count = 0
    with open(job["pages"], encoding="utf8") as f, open(job["flattened"], "w", encoding="utf8") as flat, open(
        job["without_referenced"], "w", encoding="utf8"
    ) as bare:
        for line in f:
            if not line.strip():
                continue
            page = json.loads(line)
            for post in ensure_flattened(json.loads(line)):
                flat.write(json.dumps(post) + "\n")
                count += 1
            page.get("includes", {}).pop("tweets", None)
            dropped = set(job.get("drop_ids", []))
            if isinstance(page.get("data"), list):
                page["data"] = [post for post in page["data"] if post.get("id") not in dropped]
            bare.write(json.dumps(page) + "\n")
    return {"posts": count}


def compare(job):
    with tempfile.TemporaryDirectory() as folder:
        theirs = os.path.join(folder, "twarc.csv")
        twarc_csv_command.main(
            args=[job["input"], theirs, "--hide-progress", "--hide-stats"] + job.get("options", []), standalone_mode=False
        )
        with open(theirs, newline="", encoding="utf8") as f:
            expected = list(csv.reader(f))
        with open(theirs, "rb") as f, open(job["ours"], "rb") as g:
            same_bytes = f.read() == g.read()
    with open(job["ours"], newline="", encoding="utf8") as f:
        actual = list(csv.reader(f))
    answer = {"rows": len(expected) - 1, "columns": expected[0] if expected else [], "difference": None, "same_bytes": same_bytes}
    if not expected or not actual or expected[0] != actual[0]:
        answer["difference"] = f"the headers differ: twarc-csv {expected[:1]}, ours {actual[:1]}"
        return answer
    header = expected[0]
    for number, (want, got) in enumerate(zip(expected[1:], actual[1:]), start=1):
        for column, (a, b) in enumerate(zip(want, got)):
            if a != b:
                answer["difference"] = f"row {number} (id {want[0]}), column {header[column]}: twarc-csv {a!r}, ours {b!r}"
                return answer
        if len(want) != len(got):
            answer["difference"] = f"row {number} (id {want[0]}) has {len(want)} cells from twarc-csv, {len(got)} from us"
            return answer
    if len(expected) != len(actual):
        answer["difference"] = f"twarc-csv wrote {len(expected) - 1} rows, we wrote {len(actual) - 1}"
    return answer


job = json.load(sys.stdin)
print(json.dumps({"pages": pages, "prepare": prepare, "compare": compare}[job["action"]](job)))
