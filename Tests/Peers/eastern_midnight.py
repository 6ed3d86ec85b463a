"""The next midnight in US Eastern time after each instant, by Python's zoneinfo (the standard
library, an implementation the package did not write), for ETradeTokenLifetime's test.

Reads a JSON list of Unix times on stdin; writes the JSON list of the next midnights (Unix times).
"""
import json
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

eastern = ZoneInfo("America/New_York")
answers = []
for instant in json.load(sys.stdin):
    local = datetime.fromtimestamp(instant, timezone.utc).astimezone(eastern)
    next_day = (local + timedelta(days=1)).date()
    midnight = datetime(next_day.year, next_day.month, next_day.day, tzinfo=eastern)
    answers.append(int(midnight.timestamp()))
json.dump(answers, sys.stdout)
