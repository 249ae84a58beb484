#!/bin/sh
# Runs one board's test binaries (with the board's runner prefix, e.g. qemu-aarch64) and prints
# each suite's output. Usage: run_suites.sh BOARD "RUNNER" BIN...  Exit status: 1 if any failed.
set -u
board=$1; runner=$2; shift 2
status=0
for bin in "$@"; do
    echo "== $board: $(basename "$bin")"
    # shellcheck disable=SC2086
    $runner "$bin" || status=1
done
exit $status
