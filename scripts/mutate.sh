#!/usr/bin/env bash
# Mutation testing of the core (verdicts, trust, bounds, time): see scripts/mutate.py and
# docs/testing.md. Not part of CI: a full run takes hours on two cores.
#   scripts/mutate.sh --check                  every catalog entry still applies (seconds)
#   scripts/mutate.sh --id elf-versym-index    one entry (repeatable, or comma-separated)
#   scripts/mutate.sh --file src/os/           the entries of matching files
#   nice scripts/mutate.sh --results r.md      the whole catalog, rows appended as they finish
# Uses the configured build directory build-test (--build DIR for another).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/mutate.py "$@"
