#!/usr/bin/env bash
# Type-checks what an iOS app links through the `Lifetrace` product (Lifetrace, LifetraceRecorder,
# LifetraceFormat, CRecorderSignals, CCRC32C) for arm64-apple-ios16.0 against a real iOS SDK, on
# Linux, with the shared harness `ios-typecheck` (docs/IOS.md, "Compiled for iOS"). Its last line
# is `ios typecheck: N errors`; exit 0 with none, 1 with errors, 2 when the harness is broken,
# 3 when no SDK is prepared (then nothing was checked, and one line says how to prepare it).
#
#   scripts/ios-typecheck.sh
#
# Environment: IOS_TYPECHECK_HARNESS, the harness's directory (default ../shared/ios-typecheck
# beside the repository); IOS_TYPECHECK_HOME, where its prepare.sh put the SDK (default
# /tmp/ios-typecheck); the harness's own variables pass through. The SDK and the API notes are
# other projects' files: they are fetched once per machine and never committed.
# `make test` does not run this: CI has no iOS SDK.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
harness=${IOS_TYPECHECK_HARNESS:-$(dirname "$root")/shared/ios-typecheck}
home=${IOS_TYPECHECK_HOME:-/tmp/ios-typecheck}
sdk=${IOS_SDK:-$home/iPhoneOS16.5.sdk}

if [ ! -x "$harness/typecheck.sh" ]; then
    echo "ios-typecheck: no harness at $harness (set IOS_TYPECHECK_HARNESS to the directory of typecheck.sh and prepare.sh)"
    exit 3
fi
if [ ! -f "$sdk/usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface" ]; then
    echo "ios-typecheck: no iOS SDK prepared at $home; once per machine: $harness/prepare.sh SDKS_GIT_DIR Dispatch.apinotes os.apinotes $home (see $harness/README.md)"
    exit 3
fi
# The harness compiles swift-atomics and swift-collections from the package's checkouts.
if [ ! -d "$root/.build/checkouts/swift-atomics" ] || [ ! -d "$root/.build/checkouts/swift-collections" ]; then
    (cd "$root" && swift package resolve >/dev/null) || { echo "ios-typecheck: 'swift package resolve' failed in $root"; exit 2; }
fi
IOS_TYPECHECK_HOME=$home exec "$harness/typecheck.sh" "$root"
