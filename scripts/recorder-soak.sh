#!/usr/bin/env bash
# Soak test of the recorder's crash safety: kills the probe at random points many times (default
# 2000), supervised and standalone, and checks after each kill that the trace (after `recover`,
# for the standalone recorder) holds every event whose record call returned.
# Usage: scripts/recorder-soak.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-2000}"
swift build --build-tests --quiet
LIFETRACE_SOAK_RUNS="$runs" swift test --skip-build \
    --filter 'CrashSafetyTests/(supervisedProbeKilledAtRandomPointsLosesNothing|standaloneProbeKilledAtRandomPointsLosesNothingAfterRecovery)' 2>&1 \
    | grep -E '✘|Expectation failed|Test run|passed after|failed after'
