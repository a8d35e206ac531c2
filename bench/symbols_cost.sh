#!/usr/bin/env bash
# The 100k-symbol audit's row of bench/README.md's Figures, on CPU time rather than wall
# time (the machine is shared; CPU time is what the load disturbs least):
#
#   bench/symbols_cost.sh build-bench [RUNS]
#
# Alternates, RUNS times (default 10), `rdmi-probe symbols --json --root DIR --lib LIB --headers
# DIR/include` and `readelf --dyn-syms -W LIB; nm -D LIB` on the generated 100,000-symbol
# library (bench/gen_versioned_lib.py), output to /dev/null; prints the median user + system
# time and the largest peak RSS of each, their ratio, and callgrind's instruction count of one
# audit (when valgrind is installed). Asserts nothing.
set -euo pipefail
build=$(realpath "${1:-build-bench}")
runs=${2:-10}
probe=$build/rdmi-probe
dir=$build/bench/symbols-100000
lib=$dir/libdoca_bench.so
for need in "$probe" "$lib"; do
  [[ -e $need ]] || { echo "symbols_cost.sh: $need missing: build $build with -DRDMI_PROBE_BENCH=ON" >&2; exit 2; }
done
for tool in readelf nm /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "symbols_cost.sh: $tool is needed (scripts/setup.sh --bench)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
audit=("$probe" symbols --json --root "$dir" --lib "$lib" --headers "$dir/include")
for ((i = 0; i < runs; i++)); do
  /usr/bin/time -a -o "$work/audit" -f '%U %S %M' "${audit[@]}" >/dev/null 2>&1 || true
  /usr/bin/time -a -o "$work/manual" -f '%U %S %M' \
    sh -c 'readelf --dyn-syms -W "$1" && nm -D "$1"' sh "$lib" >/dev/null 2>&1
done
summary() {  # median CPU seconds and the largest peak RSS (MB) of the runs in file $1
  awk '{ print $1 + $2, $3 }' "$1" | sort -n |
    awk '{ cpu[NR] = $1; if ($2 > rss) rss = $2 }
         END { m = NR % 2 ? cpu[(NR + 1) / 2] : (cpu[NR / 2] + cpu[NR / 2 + 1]) / 2;
               printf "%.1f %.1f\n", m * 1000, rss / 1024 }'
}
read -r audit_ms audit_mb < <(summary "$work/audit")
read -r manual_ms manual_mb < <(summary "$work/manual")
echo "| command | median CPU (user+sys) | peak RSS |"
echo "| --- | --- | --- |"
echo "| \`rdmi-probe symbols --json --root\` (100,000 symbols) | $audit_ms ms | $audit_mb MB |"
echo "| \`readelf --dyn-syms -W\` + \`nm -D\` | $manual_ms ms | $manual_mb MB |"
awk -v a="$audit_ms" -v m="$manual_ms" 'BEGIN { printf "audit vs readelf + nm (CPU): %.1fx faster\n", m / a }'
if command -v valgrind >/dev/null; then
  # --timeout: under valgrind the run is ~50x slower; the watchdog would end it unwritten.
  valgrind --tool=callgrind --callgrind-out-file="$work/cg" "${audit[@]}" --timeout 600 \
    2>"$work/cg.log" >/dev/null || true
  echo "callgrind: $(grep -o 'Collected : [0-9]*' "$work/cg.log" | awk '{ print $3 }') instructions (one audit)"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
