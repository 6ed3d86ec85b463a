"""Counts posts with twitter-text-parser (a Python port of Twitter's own twitter-text, version 3
configuration), the independent side of the Swift post-length tests.

Reads a JSON list of texts on stdin; writes a JSON list of their weighted lengths."""
import json
import sys

from twitter_text import parse_tweet

json.dump([parse_tweet(text).weightedLength for text in json.load(sys.stdin)], sys.stdout)
