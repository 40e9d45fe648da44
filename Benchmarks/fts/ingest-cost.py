# Where a log line's insert time goes in SQLite (issue 13's ingest target): re-inserts the first
# 100,000 lines of a store seeded by `payload-console-bench seed-logs` into copies of it, 500 to a
# transaction, with the schema as it is and with parts of it taken away or changed.
# Usage: python3 Benchmarks/fts/ingest-cost.py path/to/seeded.sqlite   (copies it; leaves it alone)
import os, shutil, sqlite3, sys, tempfile, time

source = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
columns = "deviceID, deviceName, app, appVersion, kind, level, message, fields, signature, loggedAt, receivedAt, byteCount"
rows = sqlite3.connect(source).execute(f"SELECT {columns} FROM device_logs ORDER BY id LIMIT ?", (count,)).fetchall()
drop_fts = ["DROP TRIGGER device_logs_indexed", "DROP TRIGGER device_logs_unindexed", "DROP TRIGGER device_logs_reindexed",
            "DROP TABLE device_log_search"]
def fts(prefix):
    option = f", prefix = '{prefix}'" if prefix else ""
    return drop_fts + [
        f"CREATE VIRTUAL TABLE device_log_search USING fts5(message, content = 'device_logs', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'{option})",
        "CREATE TRIGGER device_logs_indexed AFTER INSERT ON device_logs BEGIN INSERT INTO device_log_search(rowid, message) VALUES (new.id, new.message); END"]
# The variants below the first start from an empty FTS5 index (recreated with their options), so
# they compare with each other; the first keeps the store's index as it is.
variants = [
    ("as the store is (FTS5 prefix '2 3' over the seeded lines)", []),
    ("empty FTS5 index, prefix '2 3' as the schema", fts("2 3")),
    ("  foreign key not checked", fts("2 3") + ["PRAGMA foreign_keys = OFF"]),
    ("  FTS5 merges deferred (automerge 0)", fts("2 3") + ["INSERT INTO device_log_search(device_log_search, rank) VALUES ('automerge', 0)"]),
    ("  FTS5 prefix '2 3 4'", fts("2 3 4")),
    ("  FTS5 without prefix indexes", fts(None)),
    ("  no FTS5 index", drop_fts),
    ("  no FTS5 index, no secondary indexes", drop_fts + ["DROP INDEX device_logs_by_device", "DROP INDEX device_logs_by_app", "DROP INDEX device_logs_crashes"]),
]
work = tempfile.mkdtemp()
for label, setup in variants:
    copy = os.path.join(work, "copy.sqlite")
    shutil.copy(source, copy)
    db = sqlite3.connect(copy, isolation_level=None)
    for pragma in ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON"] + setup:
        db.execute(pragma)
    start = time.perf_counter()
    for first in range(0, len(rows), 500):
        db.execute("BEGIN IMMEDIATE")
        db.executemany(f"INSERT INTO device_logs ({columns}) VALUES ({', '.join('?' * 12)})", rows[first:first + 500])
        db.execute("COMMIT")
    print(f"{label}: {len(rows) / (time.perf_counter() - start):,.0f} lines/s", flush=True)
    db.close()
    for suffix in ["", "-wal", "-shm"]:
        if os.path.exists(copy + suffix): os.remove(copy + suffix)
os.rmdir(work)
