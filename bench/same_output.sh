#!/usr/bin/env bash
# Compares what two rdmi-probe binaries write for the same roots: a change meant to make the
# probe faster must not change a byte of its documents. Runs each binary on each root with
# `--json --root`, `--root` (text), `report --format prometheus --root`, `env --json --root`,
# `caps --json --root`, `state --json --root`, `symbols --json --root` and `--field` of each
# document's main members (one line each), and through `rdmi-probe mcp` (bench/mcp_outputs.py)
# the tools/call results of report, env, caps, state, symbols and check on each root; with
# SOURCE_DATE_EPOCH pinned, it diffs the outputs and exit codes after blanking the run's
# duration (the one figure that differs; in the check tool's document also the server's
# temporary directory).
#
#   bench/same_output.sh OLD_PROBE NEW_PROBE ROOT...
#   bench/same_output.sh OLD NEW build-test/tests/fixtures/roots/*     # every fixture root
#   OPTIONS='--timeout 5' bench/same_output.sh P P ROOT...   # words added to NEW's command lines
#
# Prints one line per root and form, and the diff of any that differ; then the count of forms
# compared and of those that differ. Exit 1 when any does.
set -euo pipefail
old=${1:?usage: bench/same_output.sh OLD_PROBE NEW_PROBE ROOT...}
new=${2:?usage: bench/same_output.sh OLD_PROBE NEW_PROBE ROOT...}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000
# The run's duration: "duration_ms": 3.1415 (JSON), " in 3.1 ms" (text), the Prometheus gauge.
blank() {
  sed -E -e 's/("duration_ms": ?)[0-9.e+-]+/\1X/' -e 's/ in [0-9.]+ ms/ in X ms/' \
    -e 's/^(rdmi_probe_run_duration_seconds(\{[^}]*\})?) [0-9.e+-]+$/\1 X/'
}
forms=(
  "--json" "" "report --format prometheus" "env --json" "caps --json" "state --json"
  "symbols --json"
  "report --field /result --field /summary --field /recommended_device --field /fix_plan"
  "env --field /version --field /host_kind --field /devices"
  "caps --field /doca_version --field /host_kind --field /devices"
  "state --field /side --field /doca_version --field /devices"
  "symbols --field /result --field /counts"
)
status=0 compared=0 different=0
differs() {  # label: counts and prints a difference between $work/old and $work/new
  compared=$((compared + 1))
  if cmp -s "$work/old" "$work/new"; then
    echo "same: $1"
  else
    echo "DIFFERENT: $1"
    diff "$work/old" "$work/new" | head -20 || true
    different=$((different + 1))
    status=1
  fi
}
for root in "$@"; do
  for form in "${forms[@]}"; do
    for which in old new; do
      probe=${!which}
      extra=()
      [[ $which == new && -n ${OPTIONS:-} ]] && read -ra extra <<<"$OPTIONS"
      code=0
      # shellcheck disable=SC2086 # the form is words
      "$probe" $form "${extra[@]}" --root "$root" >"$work/$which.out" 2>"$work/$which.err" || code=$?
      { echo "exit $code"; blank <"$work/$which.out"; } >"$work/$which"
    done
    differs "${form:-text} --root $root"
  done
done
# The MCP server's answers: one server per binary over all the roots.
/usr/bin/python3 "$here/mcp_outputs.py" "$old" "$work/mcp-old" "$@"
/usr/bin/python3 "$here/mcp_outputs.py" "$new" "$work/mcp-new" "$@"
for root in "$@"; do
  for tool in report env caps state symbols check; do
    name=$(basename "$root").$tool
    cp "$work/mcp-old/$name" "$work/old"
    cp "$work/mcp-new/$name" "$work/new"
    differs "mcp tools/call $tool {root: $root}"
  done
done
cp "$work/mcp-old/server.exit" "$work/old"
cp "$work/mcp-new/server.exit" "$work/new"
differs "mcp server exit"
echo "$compared compared, $different different"
exit $status
