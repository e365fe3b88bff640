"""Checks that the Spark job's summary equals `lifetrace report --format json` on the same traces.

    python3 integrations/spark/test_lifetrace_summary.py --lifetrace BINARY [--traces N]

Builds a directory of traces (the sample runs of Samples/launches, Samples/runs and
Samples/traces, N synthesized traces of different lengths, and one file that is not a trace),
runs the job in local mode (local[2]) with spark-submit, and compares: the summary document
exactly (counts, durations and percentiles under docs/REPORTS.md), the rows written as Parquet
against `report --format ndjson`, and the per-group summaries of --baseline/--candidate against
`lifetrace report` on each group's own traces. Ends with 'N passed, N failed'.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def spark_submit():
    import pyspark
    return os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-submit")


def lifetrace_json(binary, paths):
    process = subprocess.run([binary, "report", "--format", "json"] + paths, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if process.returncode not in (0, 2):
        raise RuntimeError("lifetrace report failed: " + process.stderr.decode())
    return json.loads(process.stdout), process.returncode


def differences(expected, actual, where="summary"):
    """Every place where `actual` differs from `expected`, as lines."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        lines = []
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                lines.append("%s.%s: missing" % (where, key))
            elif key not in expected:
                lines.append("%s.%s: unexpected %r" % (where, key, actual[key]))
            else:
                lines += differences(expected[key], actual[key], "%s.%s" % (where, key))
        return lines
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [line for index, pair in enumerate(zip(expected, actual)) for line in differences(*pair, "%s[%d]" % (where, index))]
    # Exactly equal, and of the same kind (an integer is not a fraction).
    if expected != actual or isinstance(expected, float) != isinstance(actual, float):
        return ["%s: expected %r, got %r" % (where, expected, actual)]
    return []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetrace", required=True)
    parser.add_argument("--traces", type=int, default=200, help="synthesized traces (default 200)")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.lifetrace)
    results = []

    def check(name, problems):
        results.append(not problems)
        print(("ok    " if not problems else "FAIL  ") + name)
        for line in problems[:20]:
            print("      " + line)

    work = tempfile.mkdtemp(prefix="lifetrace-spark-test-")
    started = time.monotonic()

    def elapsed():
        return "%.0f s" % (time.monotonic() - started)

    try:
        traces = os.path.join(work, "traces")
        for sample in ("launches", "runs", "traces"):
            shutil.copytree(os.path.join(ROOT, "Samples", sample), os.path.join(traces, sample))
        synthesized = os.path.join(traces, "synth")
        os.makedirs(synthesized)
        def synthesize(seed):
            events = 2000 + (seed * 7919) % 9000
            subprocess.run([binary, "synth", "--events", str(events), "--seed", str(seed), "-o",
                            os.path.join(synthesized, "synth-%04d.ltrace" % seed)], check=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(synthesize, range(1, arguments.traces + 1)))
        with open(os.path.join(traces, "not-a-trace.ltrace"), "wb") as file:
            file.write(b"this file is not a trace\n")
        # Line breaks to str.splitlines() inside JSON strings: U+2028, U+2029, U+0085.
        separators = "line\u2028paragraph\u2029next\u0085end"
        with open(os.path.join(traces, "separators.jsonl"), "w", encoding="utf-8") as file:
            file.write(json.dumps({"type": "meta", "note": separators}, ensure_ascii=False) + "\n")
            file.write('{"ts":0,"type":"launch","reason":"user"}\n')
            file.write(json.dumps({"ts": 10, "type": "mark", "name": separators}, ensure_ascii=False) + "\n")
        rows = subprocess.run([binary, "report", "--format", "ndjson", os.path.join(traces, "separators.jsonl")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        raw = [name for name, code in (("U+2028", "\u2028"), ("U+2029", "\u2029"), ("U+0085", "\u0085"))
               if code.encode() in rows.stdout]
        check("report --format ndjson escapes U+2028, U+2029 and U+0085 (the rows split with splitlines() too)",
              ["written raw: " + ", ".join(raw)] if raw or rows.returncode != 0 else
              [] if len(rows.stdout.decode().splitlines()) == 2 else ["%d lines" % len(rows.stdout.decode().splitlines())])

        print("      traces made at " + elapsed())
        expected, status = lifetrace_json(binary, [traces])
        print("      lifetrace report done at " + elapsed())
        check("lifetrace report exits 2 for the unreadable trace and reports the rest",
              [] if status == 2 and len(expected["unreadable"]) == 1 else ["exit %d, unreadable %r" % (status, expected["unreadable"])])

        out = os.path.join(work, "out")
        job = [spark_submit(), "--master", "local[2]", "--conf", "spark.ui.enabled=false",
               "--conf", "spark.sql.shuffle.partitions=4", "--driver-memory", "1g",
               os.path.join(HERE, "lifetrace_summary.py"), "--lifetrace", binary, "--out", out,
               "--group-by", "build", "--baseline", "baseline", "--candidate", "candidate", traces]
        process = subprocess.run(job, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        print("      spark-submit done at " + elapsed())
        if process.returncode != 0:
            check("spark-submit runs the job", [process.stderr.decode(errors="replace")[-3000:]])
        else:
            check("spark-submit runs the job", [])
            with open(os.path.join(out, "summary.json")) as file:
                actual = json.load(file)
            check("summary.json equals lifetrace report --format json (%d traces, %d lifetimes)"
                  % (expected["traces"], expected["lifetimes"]), differences(expected, actual))
            check("the unreadable trace is an error row, counted in the summary",
                  [] if [entry["path"] for entry in actual["unreadable"]] == [os.path.join(traces, "not-a-trace.ltrace")]
                  else ["unreadable: %r" % actual["unreadable"]])

            rows = subprocess.run([binary, "report", "--format", "ndjson", traces], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            kinds = {}
            for line in rows.stdout.decode().splitlines():
                kind = json.loads(line)["row"]
                kinds[kind] = kinds.get(kind, 0) + 1
            # The job counts the rows of each kind as Spark reads them back from rows/.
            printed = [line for line in process.stdout.decode().splitlines() if line.startswith("rows: ")]
            parquet = json.loads(printed[0][len("rows: "):]) if printed else None
            timing = [line for line in process.stdout.decode().splitlines() if line.startswith("time: ")]
            print("      job " + (timing[0] if timing else "printed no time"))
            check("rows/ holds as many rows of each kind as report --format ndjson writes %r" % kinds,
                  [] if parquet == kinds else ["parquet %r" % parquet])

            with open(os.path.join(out, "diff.json")) as file:
                diff = json.load(file)
            for group in ("baseline", "candidate"):
                alone, _ = lifetrace_json(binary, [os.path.join(traces, "launches", group)])
                check("the %s group's summary equals lifetrace report on its traces" % group,
                      differences(alone, diff["summaries"][group], group))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    passed = sum(results)
    print("spark: %d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
