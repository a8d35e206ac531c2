#!/usr/bin/env bash
# Compares what two rdmi-probe binaries write for the same roots: a change meant to make the
# probe faster must not change a byte of its documents. Runs each binary on each root with
# `--json --root`, `--root` (text), `report --format prometheus --root`, `env --json --root`,
# `caps --json --root` and `state --json --root`, with SOURCE_DATE_EPOCH pinned, and diffs
# the outputs and exit codes after blanking the run's duration (the one figure that differs).
#
#   bench/same_output.sh OLD_PROBE NEW_PROBE ROOT...
#
# Prints one line per root and form, and the diff of any that differ; exit 1 when any does.
set -euo pipefail
old=${1:?usage: bench/same_output.sh OLD_PROBE NEW_PROBE ROOT...}
new=${2:?usage: bench/same_output.sh OLD_PROBE NEW_PROBE ROOT...}
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000
# The run's duration: "duration_ms": 3.1415 (JSON), " in 3.1 ms" (text), the Prometheus gauge.
blank() {
  sed -E -e 's/("duration_ms": )[0-9.e+-]+/\1X/' -e 's/ in [0-9.]+ ms/ in X ms/' \
    -e 's/^(rdmi_probe_run_duration_seconds(\{[^}]*\})?) [0-9.e+-]+$/\1 X/'
}
status=0
for root in "$@"; do
  for form in "--json" "" "report --format prometheus" "env --json" "caps --json" "state --json"; do
    for which in old new; do
      probe=${!which}
      # shellcheck disable=SC2086 # the form is words
      code=0
      "$probe" $form --root "$root" >"$work/$which.out" 2>"$work/$which.err" || code=$?
      { echo "exit $code"; blank <"$work/$which.out"; } >"$work/$which"
    done
    if cmp -s "$work/old" "$work/new"; then
      echo "same: ${form:-text} --root $root"
    else
      echo "DIFFERENT: ${form:-text} --root $root"
      diff "$work/old" "$work/new" | head -20
      status=1
    fi
  done
done
exit $status
