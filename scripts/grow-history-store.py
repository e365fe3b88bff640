#!/usr/bin/env python3
"""Grows a history store for the scale measurements (docs/PERFORMANCE.md, "History"): copies the
store's first build until it holds BUILDS builds, each copy's launch durations scaled by a factor
of its own (a deterministic wobble of a few percent), so that `history show` computes and tests
real series. The store must hold exactly one build, added by `lifetrace history add`.

    scripts/grow-history-store.py STORE --builds 10000
"""
import argparse
import random
import sqlite3

parser = argparse.ArgumentParser()
parser.add_argument("store")
parser.add_argument("--builds", type=int, required=True)
arguments = parser.parse_args()

db = sqlite3.connect(arguments.store)
(count,) = db.execute("SELECT count(*) FROM build").fetchone()
if count != 1:
    raise SystemExit(f"{arguments.store}: holds {count} builds; grow a store of exactly one")
columns = {table: [row[1] for row in db.execute(f"PRAGMA table_info({table})") if row[1] != "id"]
           for table in ("build", "run", "lifetime", "stall", "violation")}
(source,) = db.execute("SELECT id FROM build").fetchone()
rng = random.Random(1)
with db:
    for number in range(2, arguments.builds + 1):
        factor = 1 + rng.uniform(-0.04, 0.04)
        db.execute("INSERT INTO build (buildID, commitID, branch, appVersion, buildNumber, device, os, date) "
                   "SELECT ?, ?, branch, appVersion, ?, device, os, date FROM build WHERE id = ?",
                   (str(number), f"{number:040x}", str(number), source))
        build = db.execute("SELECT last_insert_rowid()").fetchone()[0]
        for (run,) in db.execute("SELECT id FROM run WHERE buildId = ? ORDER BY id", (source,)).fetchall():
            cols = [c for c in columns["run"] if c != "buildId"]
            db.execute(f"INSERT INTO run (buildId, {', '.join(cols)}) SELECT ?, {', '.join(cols)} FROM run WHERE id = ?",
                       (build, run))
            new_run = db.execute("SELECT last_insert_rowid()").fetchone()[0]
            for (lifetime,) in db.execute("SELECT id FROM lifetime WHERE runId = ? ORDER BY id", (run,)).fetchall():
                cols = [c for c in columns["lifetime"] if c not in ("runId", "buildId", "launchDuration")]
                db.execute(f"INSERT INTO lifetime (runId, buildId, launchDuration, {', '.join(cols)}) "
                           f"SELECT ?, ?, CAST(launchDuration * ? AS INTEGER), {', '.join(cols)} FROM lifetime WHERE id = ?",
                           (new_run, build, factor, lifetime))
                new_lifetime = db.execute("SELECT last_insert_rowid()").fetchone()[0]
                db.execute("INSERT INTO stall (lifetimeId, buildId, position, duration, blame) "
                           "SELECT ?, ?, position, duration, blame FROM stall WHERE lifetimeId = ?",
                           (new_lifetime, build, lifetime))
            db.execute("INSERT INTO violation (runId, buildId, rule, severity, count) "
                       "SELECT ?, ?, rule, severity, count FROM violation WHERE runId = ?", (new_run, build, run))
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.close()
