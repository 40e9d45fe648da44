# How fast the one writer stores log lines if concurrent uploads shared a transaction ("group
# commit"; issue 13's target is 100,000 lines/s from 8 uploaders of 500 lines). Re-inserts the first
# 200,000 lines of a store seeded by `payload-console-bench seed-logs` (fewer if it has fewer) into
# fresh copies of it, as LogStore.append does: per transaction, the lines' INSERTs, ONE
# `INSERT INTO device_log_search … SELECT` for the transaction's lines, the apps' log_usage. Varies
# the transaction size, then FTS5's merge and page settings and the writer's page cache at one size,
# then takes the FTS5 index away to show the table's own ceiling. Each variant runs twice.
# Usage: python3 Benchmarks/fts/group-commit.py path/to/seeded.sqlite [lines] [size]
#        (copies the store and brings the copy to the current schema; leaves the store alone.
#         `size` is the transaction size the variants use; by default the fastest of the sizes.)
import os, shutil, sqlite3, sys, tempfile, time
from collections import defaultdict

source = sys.argv[1]
wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
fixed_size = int(sys.argv[3]) if len(sys.argv) > 3 else None
sizes = [500, 1000, 2000, 4000, 8000]
columns = "deviceID, deviceName, app, appVersion, kind, level, message, fields, signature, loggedAt, receivedAt, byteCount"
insert = f"INSERT INTO device_logs ({columns}) VALUES ({', '.join('?' * 12)})"
pragmas = ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON"]  # as the app's
print(f"SQLite {sqlite3.sqlite_version}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)

# The store as the app's migrations leave it now: 11 dropped the per-line insert trigger, 12
# recreated the index with prefix '2 3 4' and widened the crash index (Sources/App/Database).
work = tempfile.mkdtemp()
base = os.path.join(work, "base.sqlite")
shutil.copy(source, base)
db = sqlite3.connect(base, isolation_level=None)
done = {version for (version,) in db.execute("SELECT version FROM schema_migrations")}
if 11 not in done:
    db.execute("DROP TRIGGER IF EXISTS device_logs_indexed")
if 12 not in done:
    db.executescript("""
        DROP TRIGGER IF EXISTS device_logs_unindexed;
        DROP TRIGGER IF EXISTS device_logs_reindexed;
        DROP TABLE device_log_search;
        CREATE VIRTUAL TABLE device_log_search USING fts5(
            message, content = 'device_logs', content_rowid = 'id',
            tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4');
        INSERT INTO device_log_search(device_log_search) VALUES ('rebuild');
        CREATE TRIGGER device_logs_unindexed AFTER DELETE ON device_logs BEGIN
            INSERT INTO device_log_search(device_log_search, rowid, message) VALUES ('delete', old.id, old.message);
        END;
        CREATE TRIGGER device_logs_reindexed AFTER UPDATE OF message ON device_logs BEGIN
            INSERT INTO device_log_search(device_log_search, rowid, message) VALUES ('delete', old.id, old.message);
            INSERT INTO device_log_search(rowid, message) VALUES (new.id, new.message);
        END;
        DROP INDEX device_logs_crashes;
        CREATE INDEX device_logs_crashes ON device_logs(app, signature, loggedAt, appVersion, deviceID, deviceName) WHERE kind = 'crash';
        """)
assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'device_logs_indexed'").fetchall()
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
stored = db.execute("SELECT count(*) FROM device_logs").fetchone()[0]
rows = db.execute(f"SELECT {columns} FROM device_logs ORDER BY id LIMIT ?", (wanted,)).fetchall()
db.close()
print(f"re-inserting {len(rows):,} of the store's {stored:,} lines; FTS5 prefix '2 3 4', no insert trigger", flush=True)

def run(size, setup=(), index=True, connection=()):
    """Lines/s storing `rows` in transactions of `size` lines into a fresh copy of the base store.
    `setup` is run once on the copy before timing (persistent FTS5 options, dropped tables);
    `connection` are the writer's own pragmas."""
    copy = os.path.join(work, "copy.sqlite")
    shutil.copy(base, copy)
    db = sqlite3.connect(copy, isolation_level=None)
    for statement in list(setup) + pragmas + list(connection):
        db.execute(statement)
    start = time.perf_counter()
    for first in range(0, len(rows), size):
        batch = rows[first:first + size]
        db.execute("BEGIN IMMEDIATE")
        db.executemany(insert, batch)
        last = db.execute("SELECT last_insert_rowid()").fetchone()[0]
        if index:  # LogQueries.index: the transaction's lines in one statement
            db.execute("INSERT INTO device_log_search(rowid, message) SELECT id, message FROM device_logs WHERE id BETWEEN ? AND ?",
                       (last - len(batch) + 1, last))
        usage = defaultdict(lambda: [0, 0])  # LogQueries.addUsage, once per app in the transaction
        for row in batch:
            usage[row[2]][0] += row[11]
            usage[row[2]][1] += 1
        db.executemany("INSERT INTO log_usage (app, byteCount, lineCount) VALUES (?, ?, ?) ON CONFLICT (app) DO UPDATE SET "
                       "byteCount = byteCount + excluded.byteCount, lineCount = lineCount + excluded.lineCount",
                       [(app, bytes, lines) for app, (bytes, lines) in usage.items()])
        db.execute("COMMIT")
    rate = len(rows) / (time.perf_counter() - start)
    # Segments left in the index: merges a setting skips are still owed, and searches pay for them.
    segments = db.execute("SELECT count(DISTINCT segid) FROM device_log_search_idx").fetchone()[0] if index else None
    db.close()
    for suffix in ["", "-wal", "-shm"]:
        if os.path.exists(copy + suffix): os.remove(copy + suffix)
    return rate, segments

def report(label, *args, **kwargs):
    results = [run(*args, **kwargs) for _ in range(2)]
    rates = [rate for rate, _ in results]
    segments = f" ({results[-1][1]} index segments after)" if results[-1][1] is not None else ""
    print(f"{label}: {', '.join(f'{rate:,.0f}' for rate in rates)} lines/s{segments}", flush=True)
    return max(rates)

def option(name, value):  # a persistent FTS5 option, set in the copy before timing
    return f"INSERT INTO device_log_search(device_log_search, rank) VALUES ('{name}', {value})"

best = {size: report(f"{size} lines a transaction, FTS5 indexed", size) for size in sizes}
size = fixed_size or max(best, key=best.get)
print(f"variants at {size} lines a transaction:", flush=True)
variants = [
    ("  automerge 0 (merges deferred)", [option("automerge", 0)]),
    ("  automerge 2", [option("automerge", 2)]),
    ("  automerge 8", [option("automerge", 8)]),
    ("  crisismerge 64", [option("crisismerge", 64)]),
    ("  pgsz 8000 (new segments only)", [option("pgsz", 8000)]),
    ("  pgsz 16000 (new segments only)", [option("pgsz", 16000)]),
    # Not a documented option: FTS5 writes a segment whenever its in-memory terms pass 1 MB,
    # so a large transaction with three prefix lengths writes several and merges them.
    ("  hashsize 8 MB (one segment a transaction)", [option("hashsize", 8 << 20)]),
    ("  hashsize 8 MB, automerge 8", [option("hashsize", 8 << 20), option("automerge", 8)]),
]
for label, setup in variants:
    report(label, size, setup)
report("  cache_size -65536 (64 MB) on the writer", size, connection=["PRAGMA cache_size = -65536"])
# The table, its three indexes and log_usage alone: what the writer could do without FTS5.
no_index = ["DROP TRIGGER device_logs_unindexed", "DROP TRIGGER device_logs_reindexed", "DROP TABLE device_log_search"]
for size in sizes:
    report(f"{size} lines a transaction, no FTS5 index", size, no_index, index=False)
os.remove(base)
for suffix in ["-wal", "-shm"]:
    if os.path.exists(base + suffix): os.remove(base + suffix)
os.rmdir(work)
