#!/usr/bin/env bash
# Writes every output format of `check`, `report` and `export` for every sample trace with the
# lifetrace binary given, into a directory, so that two builds can be compared byte for byte:
#
#   scripts/compare-outputs.sh BEFORE_BINARY /tmp/before
#   scripts/compare-outputs.sh .build/release/lifetrace /tmp/after
#   diff -r /tmp/before /tmp/after
#
# Run from the repository's root. Exit statuses are kept beside the outputs (`*.status`).
set -u
bin=$1
out=$2
rm -rf "$out"
mkdir -p "$out"
run() { # name, command...
    local name=$1
    shift
    "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.status"
}
traces=$(ls Samples/runs/*.jsonl Samples/real/*.jsonl Samples/traces/*.jsonl Samples/reports/*.jsonl \
    Samples/rules/traces/*.jsonl Samples/launches/*/*.jsonl Samples/golden/v1-golden.ltrace)
for trace in $traces; do
    base=$(echo "$trace" | sed 's|^Samples/||; s|/|_|g')
    for format in text json junit github markdown sarif; do
        run "$base.check.$format" "$bin" check "$trace" --format "$format"
        run "$base.check-rules.$format" "$bin" check "$trace" --format "$format" --rules Samples/rules/team.yml
    done
    for format in text json markdown html ndjson; do
        run "$base.report.$format" "$bin" report "$trace" --format "$format"
    done
    run "$base.report-rules.html" "$bin" report "$trace" --format html --rules Samples/rules/team.yml
    for format in perfetto chrome-json; do
        run "$base.export.$format" "$bin" export "$trace" --to "$format" -o -
    done
    run "$base.export-rules.chrome-json" "$bin" export "$trace" --to chrome-json -o - --rules Samples/rules/team.yml
    rm -rf "$out/ctf.tmp"
    run "$base.export.ctf" "$bin" export "$trace" --to ctf -o "$out/ctf.tmp"
    if [ -d "$out/ctf.tmp" ]; then
        for file in "$out"/ctf.tmp/*; do cp "$file" "$out/$base.export.ctf.$(basename "$file")"; done
        rm -rf "$out/ctf.tmp"
    fi
done
# Summaries over many runs, and a comparison.
for format in text json markdown; do
    run "launches.report.$format" "$bin" report Samples/launches/baseline --format "$format"
    run "real.report.$format" "$bin" report Samples/real --format "$format"
done
run "launches.diff" "$bin" diff Samples/launches/baseline Samples/launches/candidate
run "list-rules" "$bin" --list-rules
for sub in check report export; do run "help.$sub" "$bin" $sub --help; done
# The scratch directory is named in some messages: the same name in every run.
for file in "$out"/*.err; do sed -i "s|$out|\$OUT|g" "$file"; done
