"""Lifetrace's many-trace summary on Apache Spark.

    spark-submit integrations/spark/lifetrace_summary.py --lifetrace BINARY --out DIR PATH...

PATHs are trace files, directories (searched recursively for .ltrace and .jsonl files) or globs,
on any filesystem Spark reads. The `lifetrace` binary (built for the executors' platform) is
shipped to the executors with SparkContext.addFile; each partition's traces are copied to the
executor's local disk and analysed by one `lifetrace report --format ndjson` process per batch.
The rows become a DataFrame, written to DIR/rows/ as Parquet, and the summary is computed from
them with Spark SQL under the definition of docs/REPORTS.md ("Aggregation"), written to
DIR/summary.json: the same document as `lifetrace report PATH... --format json`.

With --group-by KEY --baseline A --candidate B, the traces whose metadata KEY is A and B are
summarised apart and DIR/diff.json gives both summaries and the change of each percentile.
See docs/SPARK.md.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from pyspark import SparkFiles
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

TRACE_ENDINGS = (".ltrace", ".jsonl")
# The columns of every distribution: the minimum and maximum are the 0th and 100th percentiles.
COLUMNS = [("min", 0), ("median", 50), ("p90", 90), ("p99", 99), ("max", 100)]
# Only for the order of keys in summary.json (JSON objects are unordered): kinds not listed here
# follow in name order.
KIND_ORDER = ["cold", "prewarmed", "background", "unknown"]
# The distributions whose samples are counts (written as numbers); the others are durations.
COUNT_METRICS = {"stalls.perLifetime"}

LONG = T.LongType()
STRING = T.StringType()
VIOLATIONS = T.ArrayType(T.StructType([
    T.StructField("rule", STRING), T.StructField("severity", STRING),
    T.StructField("order", LONG), T.StructField("count", LONG),
]))
# One schema for the three kinds of row (docs/JSON.md, "Rows"); a field a kind lacks is null.
ROW_SCHEMA = T.StructType([
    T.StructField("schema", LONG),
    T.StructField("row", STRING),
    T.StructField("path", STRING),
    T.StructField("error", STRING),
    T.StructField("metadata", T.MapType(STRING, STRING)),
    T.StructField("index", LONG),
    T.StructField("events", LONG),
    T.StructField("lifetimes", LONG),
    T.StructField("droppedEvents", LONG),
    T.StructField("issues", T.ArrayType(STRING)),
    # Trace rows of traces with stack samples only.
    T.StructField("stallSamples", T.ArrayType(T.StructType([
        T.StructField("ts", LONG), T.StructField("dur", LONG), T.StructField("samples", LONG),
        T.StructField("blame", STRING), T.StructField("function", STRING), T.StructField("location", STRING),
        T.StructField("blameSamples", LONG),
    ]))),
    T.StructField("launch", T.StructType([
        T.StructField("kind", STRING), T.StructField("reason", STRING), T.StructField("pid", LONG),
        T.StructField("ts", LONG), T.StructField("windowEnd", STRING), T.StructField("duration", LONG),
        T.StructField("busyInWindow", LONG), T.StructField("busySource", STRING),
        T.StructField("milestones", T.StructType([
            T.StructField("willFinishLaunching", LONG), T.StructField("didFinishLaunchingEnd", LONG),
            T.StructField("firstActive", LONG), T.StructField("firstFrame", LONG),
        ])),
    ])),
    T.StructField("stalls", T.StructType([
        T.StructField("count", LONG), T.StructField("total", LONG), T.StructField("longest", LONG),
        T.StructField("longestBlame", T.StructType([
            T.StructField("kind", STRING), T.StructField("name", STRING), T.StructField("duration", LONG),
        ])),
        T.StructField("durations", T.ArrayType(LONG)),
    ])),
    T.StructField("violations", VIOLATIONS),
    T.StructField("severities", T.MapType(STRING, LONG)),
    T.StructField("timeInStates", T.StructType([
        T.StructField("view", STRING), T.StructField("durations", T.MapType(STRING, LONG)),
    ])),
    T.StructField("end", T.StructType([
        T.StructField("kind", STRING), T.StructField("inferred", T.BooleanType()),
        T.StructField("code", LONG), T.StructField("signal", LONG), T.StructField("ts", LONG),
        T.StructField("sinceLaunch", LONG),
    ])),
])


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Lifetrace's many-trace summary on Apache Spark.")
    parser.add_argument("--lifetrace", required=True, help="the lifetrace binary, built for the executors")
    parser.add_argument("--out", required=True, help="output directory: summary.json, rows/ (Parquet)")
    parser.add_argument("--batch", type=int, default=256, help="traces per lifetrace process (default 256)")
    parser.add_argument("--partitions", type=int, default=0, help="input partitions at least (default: 2 per core)")
    parser.add_argument("--partition-bytes", default="8m",
                        help="trace bytes per input partition at most (spark.files.maxPartitionBytes; default 8m)")
    parser.add_argument("--group-by", default="appVersion", help="metadata key that --baseline/--candidate name")
    parser.add_argument("--baseline", help="the group compared against (a value of --group-by)")
    parser.add_argument("--candidate", help="the group compared (a value of --group-by)")
    parser.add_argument("--analysis", default="", help="options passed to lifetrace, e.g. '--stall-threshold 100ms'")
    parser.add_argument("paths", nargs="+", help="trace files, directories or globs")
    arguments = parser.parse_args(argv)
    if (arguments.baseline is None) != (arguments.candidate is None):
        parser.error("--baseline and --candidate go together")
    return arguments


def display_path(uri):
    """The path as `lifetrace report` names a local file: `file:` dropped, other schemes kept."""
    if uri.startswith("file://"):
        return uri[len("file://"):]
    if uri.startswith("file:"):
        return uri[len("file:"):]
    return uri


def analyse_partition(binary_name, batch, analysis):
    """A function over a partition of (path, bytes) that yields the rows of its traces."""

    def analyse(traces):
        binary = SparkFiles.get(binary_name)
        if not os.access(binary, os.X_OK):
            os.chmod(binary, 0o755)
        directory = tempfile.mkdtemp(prefix="lifetrace-")
        try:
            pending = []
            for uri, content in traces:
                path = display_path(uri)
                local = os.path.join(directory, "%06d-%s" % (len(pending), os.path.basename(path)))
                with open(local, "wb") as file:
                    file.write(content)
                pending.append((local, path))
                if len(pending) == batch:
                    yield from run_lifetrace(binary, pending, analysis)
                    pending = []
            if pending:
                yield from run_lifetrace(binary, pending, analysis)
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    return analyse


def run_lifetrace(binary, pending, analysis):
    """Runs one lifetrace process over a batch of local copies and yields their rows under the
    traces' own paths; the copies are removed afterwards. When the batch's output cannot be read
    as rows, each trace is analysed alone, and one whose rows still cannot be read becomes an
    error row: one bad trace never fails the job."""
    try:
        rows = batch_rows(binary, pending, analysis)
    except BadRows:
        rows = []
        for local, path in pending:
            try:
                rows += batch_rows(binary, [(local, path)], analysis)
            except BadRows as error:
                rows.append({"schema": ROW_SCHEMA_VERSION, "row": "error", "path": path, "error": "%s: %s" % (path, error)})
    for local, _ in pending:
        os.unlink(local)
    yield from rows


# The rows' schema version (docs/JSON.md, "Rows"), for the error rows the job makes itself.
ROW_SCHEMA_VERSION = 1
# The summary document's schema version (docs/REPORTS.md, "Many runs"), as `report --format json` writes it.
SUMMARY_SCHEMA_VERSION = 1


class BadRows(Exception):
    """lifetrace's output for a batch is not one row per line, each trace closed."""


def batch_rows(binary, pending, analysis):
    names = dict(pending)
    command = [binary, "report", "--format", "ndjson"] + analysis + [local for local, _ in pending]
    process = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Exit status 2 with rows means some traces could not be read: their error rows say which.
    if process.returncode not in (0, 2) or not process.stdout:
        raise RuntimeError("lifetrace failed (exit %d): %s" % (process.returncode, process.stderr.decode(errors="replace").strip()))
    closed = set()
    rows = []
    # Rows end at "\n" only: str.splitlines() would also break a row at U+0085, U+2028, U+2029
    # and other characters a JSON string may hold.
    for number, line in enumerate(process.stdout.split(b"\n")[:-1] if process.stdout.endswith(b"\n") else process.stdout.split(b"\n")):
        try:
            row = json.loads(line.decode("utf-8"))
            local = row["path"]
            row["path"] = names[local]
        except (ValueError, KeyError, TypeError) as error:
            raise BadRows("row %d of lifetrace's output cannot be read: %s" % (number + 1, str(error).splitlines()[0]))
        if row.get("error"):
            row["error"] = row["error"].replace(local, names[local])
        if row["row"] != "lifetime":
            closed.add(local)
        rows.append(row)
    for local, path in pending:
        if local not in closed:
            raise BadRows("lifetrace wrote no closing row for %s" % path)
    return rows


def read_rows(spark, arguments):
    context = spark.sparkContext
    context._jsc.hadoopConfiguration().set("mapreduce.input.fileinputformat.input.dir.recursive", "true")
    context.addFile(os.path.abspath(arguments.lifetrace))
    partitions = arguments.partitions or 2 * context.defaultParallelism
    files = context.binaryFiles(",".join(arguments.paths), minPartitions=partitions)
    traces = files.filter(lambda item: item[0].endswith(TRACE_ENDINGS))
    analyse = analyse_partition(os.path.basename(arguments.lifetrace), arguments.batch, arguments.analysis.split())
    # The rows come from lifetrace in the documented schema; checking each one in Python again
    # would cost more than making it.
    return spark.createDataFrame(traces.mapPartitions(analyse), ROW_SCHEMA, verifySchema=False)


def distributions(spark, samples):
    """Spark SQL over `samples` (columns m, g, v: metric, group, value): n and the exact
    percentiles of each (m, g), in hundredths (docs/REPORTS.md): with (n - 1) * p = 100 * i + r,
    100 * x[i] + r * (x[i+1] - x[i]). One query for every distribution of the summary."""
    samples.createOrReplaceTempView("samples")
    spark.createDataFrame(COLUMNS, "title string, p int").createOrReplaceTempView("percents")
    result = spark.sql("""
        WITH ranked AS (
            SELECT m, g, CAST(v AS DECIMAL(38, 0)) AS v,
                   row_number() OVER (PARTITION BY m, g ORDER BY v) - 1 AS idx,
                   count(*) OVER (PARTITION BY m, g) AS n
            FROM samples),
        wanted AS (
            SELECT r.m, r.g, r.n, p.title, r.idx, r.v,
                   CAST((r.n - 1) * p.p DIV 100 AS BIGINT) AS i, CAST((r.n - 1) * p.p % 100 AS BIGINT) AS rest
            FROM ranked r CROSS JOIN percents p)
        SELECT m, g, n, title,
               100 * max(CASE WHEN idx = i THEN v END)
               + rest * (coalesce(max(CASE WHEN idx = i + 1 THEN v END), max(CASE WHEN idx = i THEN v END))
                         - max(CASE WHEN idx = i THEN v END)) AS hundredths
        FROM wanted WHERE idx = i OR idx = i + 1
        GROUP BY m, g, n, title, rest""").collect()
    stats = {}
    for row in result:
        entry = stats.setdefault(row["m"], {}).setdefault(row["g"], {"n": row["n"]})
        hundredths = int(row["hundredths"])
        # Durations: whole nanoseconds, half rounded up (floor division); counts: exact hundredths.
        entry[row["title"]] = hundredths / 100 if row["m"] in COUNT_METRICS else (hundredths + 50) // 100
    return stats


def ordered_stats(stats, groups):
    empty = {"n": 0, **{title: None for title, _ in COLUMNS}}
    return {group: {key: stats.get(group, empty)[key] for key in ["n"] + [title for title, _ in COLUMNS]} for group in groups}


def kind_order(kind):
    return (KIND_ORDER.index(kind), "") if kind in KIND_ORDER else (len(KIND_ORDER), kind)


def summarise(spark, rows):
    """The summary of `rows` (a DataFrame of rows), as `lifetrace report --format json` writes it."""
    rows.createOrReplaceTempView("rows")
    spark.sql("SELECT * FROM rows WHERE row = 'trace'").createOrReplaceTempView("traces")
    spark.sql("""SELECT l.* FROM rows l LEFT SEMI JOIN traces t ON l.path = t.path
                 WHERE l.row = 'lifetime'""").createOrReplaceTempView("lifetimes")
    totals = spark.sql("""SELECT (SELECT count(*) FROM traces) AS traces,
                                 (SELECT count(*) FROM lifetimes) AS lifetimes,
                                 (SELECT coalesce(sum(events), 0) FROM traces) AS events""").first()
    kinds = sorted((row["kind"] for row in spark.sql("SELECT DISTINCT launch.kind AS kind FROM lifetimes").collect()), key=kind_order)
    stats = distributions(spark, spark.sql("""
        SELECT 'launch' AS m, launch.kind AS g, launch.duration AS v FROM lifetimes WHERE launch.duration IS NOT NULL
        UNION ALL SELECT 'busyInWindow', launch.kind, launch.busyInWindow FROM lifetimes
        UNION ALL SELECT 'stalls.perLifetime', 'all', stalls.count FROM lifetimes
        UNION ALL SELECT 'stalls.duration', 'all', d FROM lifetimes LATERAL VIEW explode(stalls.durations) s AS d"""))
    launch, busy = stats.get("launch", {}), stats.get("busyInWindow", {})
    per_lifetime, durations = stats.get("stalls.perLifetime", {}), stats.get("stalls.duration", {})
    violations = spark.sql("""
        SELECT v.rule AS rule, first(v.severity) AS severity, min(v.order) AS ord, sum(v.count) AS count,
               sort_array(collect_list(path)) AS traces
        FROM traces LATERAL VIEW explode(violations) e AS v
        WHERE v.count > 0
        GROUP BY v.rule ORDER BY ord""").collect()
    endings = spark.sql("SELECT `end`.kind AS kind, count(*) AS n FROM lifetimes GROUP BY `end`.kind").collect()
    unreadable = spark.sql("SELECT path, error FROM rows WHERE row = 'error' ORDER BY path").collect()
    return {
        "schema": SUMMARY_SCHEMA_VERSION,
        "traces": totals["traces"],
        "lifetimes": totals["lifetimes"],
        "events": totals["events"],
        "launch": ordered_stats(launch, kinds),
        "busyInWindow": ordered_stats(busy, kinds),
        "stalls": {
            "perLifetime": ordered_stats(per_lifetime, ["all"])["all"],
            "duration": ordered_stats(durations, ["all"])["all"],
        },
        "violations": [
            {"rule": row["rule"], "severity": row["severity"], "count": row["count"], "traces": list(row["traces"])}
            for row in violations
        ],
        "endings": {row["kind"]: row["n"] for row in sorted(endings, key=lambda row: (-row["n"], row["kind"]))},
        "unreadable": [{"path": row["path"], "error": row["error"]} for row in unreadable],
    }


def change(baseline, candidate):
    """The change of every percentile from the baseline's summary to the candidate's."""
    def delta(before, after):
        return {title: (after[title] - before[title]) if before[title] is not None and after[title] is not None else None
                for title, _ in COLUMNS}
    result = {}
    for section in ("launch", "busyInWindow"):
        for kind in sorted(set(baseline[section]) & set(candidate[section]), key=kind_order):
            result["%s.%s" % (section, kind)] = delta(baseline[section][kind], candidate[section][kind])
    for metric in ("perLifetime", "duration"):
        result["stalls.%s" % metric] = delta(baseline["stalls"][metric], candidate["stalls"][metric])
    return result


def write_text(spark, path, text):
    """Writes `text` to `path` on any filesystem Spark reads (through Hadoop's FileSystem)."""
    jvm = spark.sparkContext._jvm
    target = jvm.org.apache.hadoop.fs.Path(path)
    filesystem = target.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    stream = filesystem.create(target, True)
    try:
        stream.write(bytearray(text.encode("utf-8")))
    finally:
        stream.close()


def main(argv):
    arguments = parse_arguments(argv)
    # Traces are small files: Spark's default of 128 MB per input partition would put
    # thousands of them in one task and leave the other cores idle.
    spark = (SparkSession.builder.appName("lifetrace summary")
             .config("spark.files.maxPartitionBytes", arguments.partition_bytes).getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    try:
        started = time.monotonic()
        rows = read_rows(spark, arguments)
        out = arguments.out.rstrip("/")
        rows.write.mode("overwrite").parquet(out + "/rows")
        analysed = time.monotonic()
        # The summary reads the Parquet rows back: the traces are analysed once.
        rows = spark.read.parquet(out + "/rows")
        kinds = {row["row"]: row["count"] for row in rows.groupBy("row").count().collect()}
        summary = summarise(spark, rows)
        write_text(spark, out + "/summary.json", json.dumps(summary, indent=2) + "\n")
        summarised = time.monotonic()
        if arguments.baseline is not None:
            groups = {}
            for name, value in (("baseline", arguments.baseline), ("candidate", arguments.candidate)):
                group_rows = rows.where(F.col("metadata").getItem(arguments.group_by) == value)
                groups[name] = summarise(spark, group_rows)
            diff = {"groupBy": arguments.group_by, "baseline": arguments.baseline, "candidate": arguments.candidate,
                    "summaries": groups, "change": change(groups["baseline"], groups["candidate"])}
            write_text(spark, out + "/diff.json", json.dumps(diff, indent=2) + "\n")
        print("lifetrace summary: %d traces, %d lifetimes, %d unreadable; written to %s" % (
            summary["traces"], summary["lifetimes"], len(summary["unreadable"]), out))
        print("rows: " + json.dumps(kinds, sort_keys=True))
        print("time: analysis and Parquet rows %.1f s, summary %.1f s, groups %.1f s" % (
            analysed - started, summarised - analysed, time.monotonic() - summarised))
    finally:
        spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
