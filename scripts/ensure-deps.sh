#!/usr/bin/env bash
# Makes sure the Debian packages the build needs are installed: installs them with apt-get when
# running as root, otherwise says in one line what to install and fails. With --test, also what
# the tests need: chromium (the HTML report is rendered in a real browser) and python3.
set -euo pipefail

missing=()
if ! command -v pkg-config >/dev/null 2>&1; then
    missing+=(pkg-config)
    [[ -f /usr/include/zstd.h ]] || missing+=(libzstd-dev)
elif ! pkg-config --exists libzstd; then
    missing+=(libzstd-dev)
fi

if [[ "${1:-}" == "--test" ]]; then
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
    command -v python3 >/dev/null 2>&1 || missing+=(python3)
fi

if ((${#missing[@]} == 0)); then
    exit 0
fi

if [[ ${EUID:-$(id -u)} -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "installing ${missing[*]} with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    exit 0
fi

echo "missing packages: ${missing[*]}; install them with: sudo apt-get install ${missing[*]}" >&2
exit 1
