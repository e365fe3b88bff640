# Keeps what matters of `swift test` output: failures with their details, skips and warnings, and
# the closing summary line. A record line starts with one of Swift Testing's symbols; lines that
# do not (multi-line test arguments, expectation details) belong to the record above them and are
# shown only when that record is.
/^(◇|✔|✘|↳|⚠|➜|􀟈|􀢄|􀄵)/ || /^Test Suite|^Executed|^\[/ {
    show = /^(✘|⚠|➜)/ || /^✔ Test run with / || (/^↳/ && show)
    if (show) print
    next
}
show { print }
