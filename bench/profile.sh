#!/usr/bin/env bash
# Profiles one `rdmi-probe --json --root ROOT` on the bench root (complete DOCA 3.3 install, 8
# PCI functions) under callgrind and prints the functions with the largest inclusive cost
# (instructions executed in them and everything they call).
#
#   bench/profile.sh build-bench [TOP]      (a build configured as in bench/run.sh)
#
# The profile stays in BUILD_DIR/bench/callgrind.out for kcachegrind / callgrind_annotate.
set -euo pipefail
build=$(realpath "${1:-build-bench}")
top=${2:-15}
root=$build/bench/roots/complete-3.3-8fn
out=$build/bench/callgrind.out
command -v valgrind >/dev/null || { echo "profile.sh: valgrind is needed (scripts/setup.sh --bench)" >&2; exit 2; }
[[ -e $root/.rdmi-sysfs-fixture ]] || { echo "profile.sh: $root missing: build $build first" >&2; exit 2; }
valgrind --tool=callgrind --callgrind-out-file="$out" "$build/rdmi-probe" --json --root "$root" \
  >/dev/null 2>"$build/bench/callgrind.log" || true  # exit code: the verdict on the root
total=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
echo "Total: $total instructions (Ir)"
echo
echo "| inclusive Ir | % | function |"
echo "| ---: | ---: | --- |"
callgrind_annotate --inclusive=yes "$out" 2>/dev/null |
  awk -v total="$total" -v top="$top" '
    /^-+$/ { dashes++; next }
    dashes >= 3 && NF >= 2 && $1 ~ /^[0-9,]+$/ {
      ir = $1; gsub(",", "", ir)
      $1 = ""; sub(/^ +/, "")
      sub(/^\([^)]*\) +/, "")   # callgrind_annotate 3.19 prints "(percent)" before the name
      if (shown++ < top) printf "| %s | %.1f | `%s` |\n", ir, 100 * ir / total, substr($0, 1, 140)
    }'
