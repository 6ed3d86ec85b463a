"""An independent reader of a `tweets --db` archive: Python's own sqlite3 module.

Reads a JSON request on stdin: {"path": FILE, "queries": {NAME: SQL, ...}} and prints a JSON
answer: the integrity check, the schema version, the journal mode, the ids of the tweets and of
the missing tweets, how many tweets have an author row, and each query's rows.
"""
import json
import sqlite3
import sys

request = json.load(sys.stdin)
# Read-only, through a URI: the reader must not change what it checks.
connection = sqlite3.connect("file:%s?mode=ro" % request["path"], uri=True)
answer = {
    "integrity": connection.execute("PRAGMA integrity_check").fetchone()[0],
    "user_version": connection.execute("PRAGMA user_version").fetchone()[0],
    "journal_mode": connection.execute("PRAGMA journal_mode").fetchone()[0],
    "tweet_ids": [str(row[0]) for row in connection.execute("SELECT id FROM tweets")],
    "missing_ids": [str(row[0]) for row in connection.execute("SELECT id FROM missing_tweets")],
    "tweets_with_author_row": connection.execute(
        "SELECT count(*) FROM tweets t JOIN users u ON u.id = t.author_id").fetchone()[0],
    "fetches": [
        {"id": row[0], "command": json.loads(row[1]), "status": row[2], "records": row[3], "input_done": row[4]}
        for row in connection.execute("SELECT id, command, status, records, input_done FROM fetches ORDER BY id")
    ],
    "queries": {},
}
for name, sql in request.get("queries", {}).items():
    answer["queries"][name] = [list(row) for row in connection.execute(sql)]
connection.close()
print(json.dumps(answer))
